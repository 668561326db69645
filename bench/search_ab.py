# A/B of Ctrl-R to the first screen: hookd search --widget bash on a pty, until
# the first result row is drawn, then Esc; binaries interleaved; medians of
# the wall time and of the CPU time (user+system) of the whole run.
#   python3 bench/search_ab.py HOME RUNS BIN_A BIN_B   (HOME as bench/search.sh makes it)
import os, pty, time, select, statistics, sys
H=sys.argv[1]
env={'HOME':H,'XDG_DATA_HOME':H+'/.local/share','XDG_STATE_HOME':H+'/.local/state','XDG_RUNTIME_DIR':H+'/.run','PATH':os.environ['PATH'],'TERM':'xterm-256color','LANG':'C.UTF-8','HOOKD_SESSION':'s0042'}
def one(b):
    t0=time.time()
    pid, fd = pty.fork()
    if pid==0:
        os.execve(b,['hookd','search','--widget','bash'],env)
    buf=b''
    while b'\xe2\x96\x8c1' not in buf:
        r,_,_=select.select([fd],[],[],5)
        if not r: break
        buf+=os.read(fd,65536)
    t1=time.time()
    os.write(fd,b'\x1b')
    try:
        while os.read(fd,65536): pass
    except OSError: pass
    _,st,ru=os.wait4(pid,0)
    return (t1-t0)*1000, (ru.ru_utime+ru.ru_stime)*1000
res={b:[] for b in sys.argv[3:]}
for i in range(int(sys.argv[2])):
    for b in res: res[b].append(one(b))
for b,v in res.items():
    print(b, 'first screen median %.1f ms p90 %.1f, cpu median %.1f ms'%(statistics.median([x[0] for x in v]), sorted(x[0] for x in v)[int(len(v)*0.9)], statistics.median([x[1] for x in v])))
