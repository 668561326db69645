# Start-up cost of a hookd binary against a baseline: the package
# initialisers (GODEBUG=inittrace=1 hookd version), the initialisers of
# the packages the new one adds, and the wall time of hookd version and
# hookd init bash, interleaved, medians.
#   python3 bench/search_init.py BASE_BIN NEW_BIN [RUNS]
import subprocess, statistics, os, sys, time
bins={"base":sys.argv[1],"new":sys.argv[2]}
N=int(sys.argv[3]) if len(sys.argv)>3 else 40
env=dict(os.environ, GODEBUG='inittrace=1')
tot={k:[] for k in bins}; per={k:{} for k in bins}
for i in range(N):
    for k,b in bins.items():
        p=subprocess.run([b,'version'],env=env,capture_output=True,text=True)
        s=0
        for l in p.stderr.splitlines():
            f=l.split()
            if f and f[0]=='init':
                ms=float(f[4]); s+=ms; per[k].setdefault(f[1],[]).append(ms)
        tot[k].append(s)
for k in bins: print(k,'init total median %.3f ms'%statistics.median(tot[k]), 'packages',len(per[k]))
new=set(per['new'])-set(per['base'])
rows=sorted(((statistics.median(per['new'][p]),p) for p in new),reverse=True)
print('new packages with an initialiser: %d, sum of medians %.3f ms'%(len(rows),sum(r[0] for r in rows)))
for m,p in rows: print('  %.3f ms %s'%(m,p))
# wall time of whole commands
def wall(cmd):
    t=time.perf_counter(); subprocess.run(cmd,capture_output=True); return (time.perf_counter()-t)*1000
for args in (['version'],['init','bash']):
    w={k:[] for k in bins}
    for i in range(N):
        for k,b in bins.items(): w[k].append(wall([b]+args))
    print(' '.join(args),' '.join('%s median %.2f ms'%(k,statistics.median(v)) for k,v in w.items()))
