# hookd shell integration for fish (3.1 or newer).
# Load it from ~/.config/fish/config.fish with two lines, the first and the last:
#   hookd init fish --early | source   # enters the capturing proxy here
#   …
#   hookd init fish | source           # the hooks, keys and completion
# (the last line alone works too; config.fish then runs twice under capture).
#
# On every prompt this code appends one record to a spool file private to this
# shell, using builtins only: no process is started while you work, except
# after a failed command, when `hookd suggest --inline` prints its fixes. The
# hookd daemon moves the records into the history database. `hookd init` fills
# in the lines marked @name@ (the binary, the state directory, the settings)
# and leaves the comment lines out; nothing else is generated.
#
# The file reads as a list of named steps, in the same order as bash.sh and
# zsh.sh, so that the three can be read side by side. fish runs builtins and
# functions in its own process, command substitutions of them too: `(math …)`
# starts no process, and neither does anything on the prompt's path here. A
# command substitution still costs fish ~0.1 ms, more than the rest of a
# prompt's work: the prompt's path has none (times are written as sums the
# daemon adds up, sequence numbers taken from a list made 100 at a time).
#
#   start-up (run once by _hookd_start, then erased: none of it is left for
#   the prompt's path)
#     _hookd_init            guards, the values hookd init fills in, the steps:
#     _hookd_init_capture      enter the capturing proxy (capture on)
#       _hookd_proxy             re-execute under it (the end line's work; the
#                                early line's where it cannot hand over)
#       _hookd_handover          hand the terminal to the early line's hookd,
#                                which becomes the proxy (the early line's work)
#     _hookd_init_session      the session: its id, spool, header, the clock
#     _hookd_init_env          the environment's names (fix.watch_env), first record
#     _hookd_init_hooks        the event handlers (fish_preexec, fish_postexec, …)
#     _hookd_init_ask          the `??` and `!!ctx` lines (Enter)
#     _hookd_init_fix          the fix command, the fix and AI keys
#     _hookd_init_search       Ctrl-R: hookd search
#     _hookd_init_complete     completion of hookd's command line
#     _hookd_init_daemon       the daemon, started if it is not running
#   the prompt's path
#     _hookd_postexec        records the command that just finished
#     _hookd_preexec         the marks that start its output (capture)
#     _hookd_after           failures, capture marks, a dead daemon
#     _hookd_envrec          the environment's record, when it changed
#     _hookd_grow            the next hundred sequence numbers
#     _hookd_prompt_mark     the prompt's mark under capture (fish_prompt)
#   the `??` lines
#     _hookd_arm, _hookd_arm_enter, _hookd_enter
#     _hookd_ask_word        `hookd` or its path, for the rewritten line
#     _hookd_offer_line      the answer's command on the next line (one-shot)
#   the fixes
#     _hookd_fix (the fix command), _hookd_fix_key, _hookd_ai_key
#   the search
#     _hookd_search          Ctrl-R: hookd search, its choice on the line
#   completion
#     _hookd_complete
#   the daemon
#     _hookd_daemon          starts the daemon, notes how to tell it runs
#   _hookd_start             runs the start-up; the early line's `hookd`

# _hookd_init checks that this shell can load hookd (interactive, not
# loaded yet, new enough), sets the values hookd init fills in, and runs the
# start-up steps in order.
function _hookd_init
    status is-interactive; or return 0
    set -q _hookd_loaded; and return 0
    if string match -qr '^(2\.|3\.0\.)' -- $version
        printf 'hookd: fish %s is too old (3.1 or newer is needed); commands are not recorded in this shell\n' $version >&2
        return 0
    end
    set -g _hookd_loaded 1

    set -g _hookd_bin hookd # @bin@
    set -g _hookd_capture off # @capture@
    set -g _hookd_fixcmd fix # @fixcmd@
    set -g _hookd_fixkey '' # @fixkey@
    set -g _hookd_aikey '' # @aikey@
    set -g _hookd_prefix '' # @prefix@
    set -g _hookd_searchkey '' # @searchkey@
    set -g _hookd_searchup '' # @searchup@
    set -g _hookd_searchreplace '' # @searchreplace@
    set -g _hookd_watch '' # @watch@
    # The wall clock's time at the machine's boot, in microseconds, as
    # hookd init read it: with /proc/uptime (read by a builtin) it gives
    # the time without a process, which fish has no variable for.
    set -g _hookd_clock 0 # @clock@
    set -g _hookd_uid '' # @uid@
    # What fish would otherwise work out at every start through command
    # substitutions (each costs it 0.15–0.6 ms): the binary quoted for a
    # command line, the ask prefix as a regular expression and its first
    # character quoted, and the words that expand the variables the
    # environment records hold (joined by \x1f, and by spaces).
    set -g _hookd_binq '' # @binq@
    set -g _hookd_prefix_re '' # @prefixre@
    set -g _hookd_pfirst '' # @pfirst@
    set -g _hookd_pfirstq '' # @pfirstq@
    set -g _hookd_envj '' # @envj@
    set -g _hookd_envv '' # @envv@
    # hookd's files, as package paths lays them out (from the XDG variables
    # as adrg/xdg reads them: "~/" expanded where a shell would not): the
    # shell writes where the daemon reads, and derives none of them itself.
    set -g _hookd_state '' # @state@
    set -g _hookd_spooldir '' # @spooldir@
    set -g _hookd_fixdir '' # @offerdir@
    set -g _hookd_pidfile '' # @pidfile@

    _hookd_init_capture
    _hookd_init_session
    _hookd_init_env
    _hookd_init_hooks
    _hookd_init_ask
    _hookd_init_fix
    _hookd_init_search
    _hookd_init_complete
    _hookd_init_daemon
end

# _hookd_init_capture: this shell runs under `hookd shell`, a PTY proxy,
# when capture is on. HOOKD_PTY names the proxy's terminal: a shell on it (a
# nested shell, `exec fish`) is already captured and prints the marks that
# cut the output per command. A shell on another terminal (a new tmux pane,
# say) enters a proxy of its own: best at the early line (`hookd init fish
# --early | source`, config.fish's first line), which re-executes the shell
# before the rest of config.fish runs; where the early line ran but could
# not, this shell goes on without capture (`hookd status` says why).
# Without the early line, here: once, after checking that the proxy can
# start, and then the whole of config.fish runs again in the new shell.
function _hookd_init_capture
    set -g _hookd_nonce ''
    test "$_hookd_capture" = pty; or return 0
    if set -q HOOKD_PTY HOOKD_CAPTURE_NONCE; and _hookd_on_tty $HOOKD_PTY
        set _hookd_nonce $HOOKD_CAPTURE_NONCE
        return 0
    end
    set -q _hookd_early; and return 0
    if test -t 1; and test -t 2; and test -x "$_hookd_bin"; and command $_hookd_bin shell --check --shell (status fish-path) </dev/null >/dev/null 2>&1
        _hookd_proxy $_hookd_bin --rc-again
    end
    return 0
end

# _hookd_on_tty TTY: whether this shell's terminal is TTY, asked without a
# process (`path resolve`, fish 3.5; an older fish, or one without /proc,
# trusts HOOKD_PTY: asking there would re-execute the shell under a proxy
# again and again). The shell's own stdin, not the code's: `hookd init
# fish | source` runs this code with its stdin on the pipe.
function _hookd_on_tty
    builtin -q path; or return 0
    test -e /proc/$fish_pid/fd/0; or return 0
    test (path resolve /proc/$fish_pid/fd/0) = (path resolve $argv[1])
end

# _hookd_proxy BIN [FLAG] re-executes this shell under BIN's `hookd shell`,
# with the same command line (a login shell's "-fish", options), read
# without a process; without /proc, as an interactive shell. Where the
# early line's hookd cannot hand over (no /proc), it is all that the early
# line runs in a terminal that is not captured yet (hookd init --early
# prints this function and a call), so it stands alone. The proxy gets the
# terminal as its stdin (this code's is `| source`'s pipe).
function _hookd_proxy
    status is-interactive; and test -t 1; and test -t 2; and test -x "$argv[1]"; or return 0
    set -l fish_path (status fish-path)
    set -l fish_argv
    test -r /proc/$fish_pid/cmdline; and while read -lz a
        set -a fish_argv $a
    end </proc/$fish_pid/cmdline
    set -l flag $argv[2..]
    # Where this fish keeps its own files: the proxy starts the new fish
    # with hookd's start-up already read from a vendor_conf.d beside them
    # (package shellinit's FishEarly), so that its config.fish's hookd
    # lines start no process.
    set -lx HOOKD_FISH_DATA_DIR $__fish_data_dir
    if set -q fish_argv[1]
        exec $argv[1] shell $flag --shell $fish_path -- $fish_argv </dev/tty
    else if status is-login
        exec $argv[1] shell $flag --login --shell $fish_path </dev/tty
    else
        exec $argv[1] shell $flag --shell $fish_path </dev/tty
    end
end

# _hookd_handover DIR hands this shell's terminal to the proxy that the
# early line's hookd becomes: `hookd init fish --early | source` runs this
# while that hookd still runs, so no second hookd has to start (package
# ptyshell's Handover). DIR holds two FIFOs that hookd made. On go this
# fish says whether it hands over (an interactive shell on a terminal, new
# enough) and how it was started; st it has open before that, and there it
# waits for the proxy's end. It then ends with the new shell's status,
# running nothing more (exec, not exit: fish_exit handlers ran in the new
# shell). Where the proxy could not start ("off"), or hookd ended without
# a word, this fish goes on as the shell, capture off. It stands alone,
# in syntax that fish 2 parses.
function _hookd_handover
    if not status is-interactive; or not test -t 1; or not test -t 2; or string match -qr '^(2\.|3\.0\.)' -- $version
        echo no >$argv[1]/go
        return 0
    end
    set -l path (status fish-path)
    set -l login 0
    status is-login; and set login 1
    begin
        printf '%s\n' go $fish_pid $login "$path" "$__fish_data_dir" end >$argv[1]/go
        read -l st
        if string match -qr '^[0-9]+$' -- "$st"
            exec /bin/sh -c 'exit "$1"' hookd $st
        end
    end <$argv[1]/st
    set -gx HOOKD_CAPTURE off
end

# _hookd_init_session starts this shell's session: its id (HOOKD_SESSION
# is exported for the hookd CLI, but a child shell makes its own), its
# spool file and the header record. No process is started (the spool
# directory is made by hookd init).
function _hookd_init_session
    # Times are the boot time hookd init filled in (microseconds since the
    # epoch) plus /proc/uptime (seconds, read by a builtin, to the
    # hundredth): written as the sum "BOOT+UPTIME", which the daemon adds up
    # (package spool); a command's end is its start plus $CMD_DURATION
    # ("BOOT+UPTIME+Nms").
    # Without /proc (macOS, a sandbox) the uptime read is the word "now"
    # from a file in the spool directory: the daemon reads it as the time
    # it reads the record (package spool).
    set -g _hookd_upf /proc/uptime
    if not test -r $_hookd_upf
        set _hookd_upf $_hookd_spooldir/now
        set -g _hookd_clock 0
        test -r $_hookd_upf; or echo now 2>/dev/null >$_hookd_upf; or set _hookd_upf /dev/null
    end
    set -g _hookd_t0 $_hookd_clock
    # The session's time and its random part from one substitution.
    set -l v
    set -l up
    read up _ <$_hookd_upf; and set _hookd_t0 $_hookd_clock+$up
    if test -n "$up" -a "$up" != now
        set v (math --scale=0 "$_hookd_clock + $up * 1000000"; random 0 32767)
    else
        set v $_hookd_clock (random 0 32767)
    end
    set -gx HOOKD_SESSION $v[1]-$fish_pid-$v[2]
    set -g _hookd_spool $_hookd_spooldir/$HOOKD_SESSION.spool
    set -g _hookd_fixes $_hookd_fixdir/$HOOKD_SESSION
    # Sequence numbers: _hookd_nums the next ones (its first is the next
    # command's), _hookd_blk the hundreds.
    set -g _hookd_blk 0
    set -g _hookd_nums
    _hookd_grow
    set -g _hookd_cwd $PWD
    set -g _hookd_ran ''
    set -g _hookd_alive ''
    set -g _hookd_tried -1
    test -d $_hookd_spooldir; or command mkdir -p -m 700 -- $_hookd_state $_hookd_spooldir 2>/dev/null
    # The session header, in a file made 0600 ($umask is the process's
    # umask itself: fish's umask function, autoloaded, costs ~1.5 ms).
    set -l mask $umask
    set -g umask 0077
    set -l cap off
    test -n "$_hookd_nonce"; and set cap pty
    test -w $_hookd_spooldir; and printf '\nS2\0%s\0%s\0%s\0%s\0%s\0%s\0%s\0%s\0' fish $version $fish_pid "$hostname" "$USER" "$_hookd_uid" $_hookd_t0 \
        $cap >>$_hookd_spool 2>/dev/null
    set -g umask $mask
    return 0
end

# _hookd_init_env: the environment a command runs in, noted as a record
# in the spool at start-up and then whenever it changes (_hookd_envrec,
# checked by one comparison in _hookd_postexec): PATH (fish's list, joined
# with ":" as it is exported) and the variables of the environment managers
# (activate.fish sets VIRTUAL_ENV, conda's hook CONDA_PREFIX), and
# fix.watch_env's (_hookd_watch: hookd init lets only variable names
# through). The watched names are spliced into _hookd_postexec's check,
# and all of them spelled out in _hookd_envwrite (eval, here, once).
function _hookd_init_env
    set -g _hookd_envn PATH VIRTUAL_ENV CONDA_PREFIX NODE_ENV KUBECONFIG AWS_PROFILE DOCKER_CONTEXT GOFLAGS
    if test -n "$_hookd_watch"
        set -a _hookd_envn (string split -n ' ' -- $_hookd_watch)
        set -l vals
        for n in $_hookd_envn
            set -a vals '"$'$n'"'
        end
        set -l w (string join '\x1f' -- $vals[9..])
        functions _hookd_postexec | string replace -- '\x1f"$GOFLAGS"' '\x1f"$GOFLAGS"\x1f'$w | source
    end
    # _hookd_envwrite appends the values, each ended by \x1f. The words
    # that expand them come made (_hookd_envv, _hookd_envj), as hookd init
    # knows the names: no loop, no substitution.
    eval "function _hookd_envwrite; printf '%s\x1f' $_hookd_envv; end"
    # The first record, with the values as _hookd_postexec joins them.
    eval "set -l x $_hookd_envj"
    _hookd_envrec 1 $x
    return 0
end

# _hookd_init_hooks: the event handler that records is _hookd_postexec
# itself (defined below, with --on-event fish_postexec); fish gives every
# handler and the prompt the command's $status and $pipestatus, whatever a
# handler did. A line that did not parse ran nothing: fish runs no
# fish_postexec for it. Under capture, fish_preexec prints the marks that
# start the output, and a fish_prompt handler the prompt's.
function _hookd_init_hooks
    if test -n "$_hookd_nonce"
        function _hookd_preexec_ev --on-event fish_preexec
            _hookd_preexec $argv
        end
        function _hookd_prompt_mark --on-event fish_prompt
            printf '\e]133;A\a'
        end
    end
    return 0
end

# _hookd_init_ask: `?? QUESTION` and `!!ctx` at the prompt (ask.prefix; ''
# turns them off) are rewritten by Enter before fish reads the line, so that
# neither fish's history nor its parser sees them. Enter keeps its binding
# until the first character of the prefix or a `!` is typed, or text is
# pasted (_hookd_arm, _hookd_arm_enter): only then does it run _hookd_enter,
# so that an ordinary command line costs nothing more. Only where Enter is
# fish's own `execute` (another binding is left alone), and the keys are
# free.
function _hookd_init_ask
    set -g _hookd_ask_cmd ''
    set -g _hookd_armed ''
    set -g _hookd_enter_modes
    test -n "$_hookd_prefix"; or return 0
    # fish sets its key bindings up when its line editor first starts,
    # after config.fish: the keys are bound then, once. (A binding is
    # read as `bind … 2>/dev/null | read`: a substitution, or output sent
    # to /dev/null, costs fish 3.6 a hundred microseconds more.)
    function _hookd_bind_ask --on-event fish_prompt
        functions -e _hookd_bind_ask
        for mode in default insert
            bind -M $mode \r 2>/dev/null | read -l b; and string match -qr -- ' execute$' $b; or continue
            set -a _hookd_enter_modes $mode
            # The prefix's first character (as hookd init gave it, and
            # quoted) and "!": each armed unless the user bound it.
            bind -M $mode -- $_hookd_pfirst 2>/dev/null | read -l _; or bind -M $mode -- $_hookd_pfirst "_hookd_arm $_hookd_pfirstq"
            bind -M $mode -- '!' 2>/dev/null | read -l _; or bind -M $mode -- '!' "_hookd_arm '!'"
        end
        # Pasted text does not go through the keys: the end of a paste
        # arms Enter too.
        if set -q _hookd_enter_modes[1]; and bind -M paste \e\[201~ 2>/dev/null | read -l b; and string match -qr -- ' __fish_stop_bracketed_paste$' $b
            bind -M paste \e\[201~ '__fish_stop_bracketed_paste; _hookd_arm_enter'
        end
    end
    return 0
end

# _hookd_ask_word is what a rewritten `??` line calls hookd: `hookd` when
# PATH finds this binary under that name, else the binary's path. Worked
# out at the first question (config.fish may set PATH after hookd's line).
function _hookd_ask_word
    if test -z "$_hookd_ask_cmd"
        set -g _hookd_ask_cmd $_hookd_binq
        for d in $PATH
            if test -x $d/hookd; and not test -d $d/hookd
                if builtin -q path
                    set -l r (path resolve -- $d/hookd $_hookd_bin)
                    test "$r[1]" = "$r[2]"; and set _hookd_ask_cmd hookd
                end
                break
            end
        end
    end
    echo $_hookd_ask_cmd
end

# _hookd_quote quotes its argument as one fish word: single quotes, in
# which fish reads \' and \\ as escapes.
function _hookd_quote
    printf "'%s'" (string replace -a -- "'" "\\'" (string replace -a -- '\\' '\\\\' $argv[1]))
end

# _hookd_init_fix defines `fix` (or the name the config gives), unless that
# name is taken (a function, a builtin, a command; hookd init lets only a
# plain word through), and binds Ctrl-X f (fix.key), which puts the next fix
# on the command line, and Ctrl-X l (fix.ai_key), which asks the LLM about
# the last failure: in the default and vi insert modes, where the key is free.
function _hookd_init_fix
    if test -n "$_hookd_fixcmd"; and not type -q $_hookd_fixcmd
        function $_hookd_fixcmd --wraps _hookd_fix
            _hookd_fix $argv
        end
    end
    for mode in default insert
        if test -n "$_hookd_fixkey"; and not bind -M $mode $_hookd_fixkey 2>/dev/null | read -l _
            bind -M $mode $_hookd_fixkey _hookd_fix_key
        end
        if test -n "$_hookd_aikey"; and not bind -M $mode $_hookd_aikey 2>/dev/null | read -l _
            bind -M $mode $_hookd_aikey _hookd_ai_key
        end
    end
    return 0
end

# _hookd_init_search binds Ctrl-R (search.key), and search.up_key (none
# unless set), to hookd search, which searches every command and what it
# printed: in the default and vi insert modes, where the key is free or
# holds fish's own history search (history-pager, history-search-backward,
# up-or-search; up-line, the preset fish has before its line editor sets its
# bindings up), and not where another tool holds it (fzf's
# fzf-history-widget, atuin's) unless search.replace says so.
function _hookd_init_search
    for key in $_hookd_searchkey $_hookd_searchup
        test -n "$key"; or continue
        for mode in default insert
            if test -z "$_hookd_searchreplace"; and bind -M $mode $key 2>/dev/null | read -l b
                if not string match -qr -- ' (history-pager|history-search-backward|history-prefix-search-backward|up-or-search|up-line|_hookd_search)$' $b
                    continue
                end
            end
            bind -M $mode $key _hookd_search
        end
    end
    return 0
end

# _hookd_init_complete: completion of hookd's command line, and of a
# question after the ask prefix (?? /review<Tab>), unless something else
# completes them.
function _hookd_init_complete
    complete -c hookd | read -l _; or complete -c hookd -f -a '(_hookd_complete)'
    return 0
end

# _hookd_init_daemon starts the daemon if it is not running.
function _hookd_init_daemon
    _hookd_daemon
end

# _hookd_postexec (fish_postexec) writes the record of the command that
# just finished: the line as typed (several lines too; fish passes it), the
# numbers (sequence; start and end as sums: the boot time, plus
# /proc/uptime read now, the end, less $CMD_DURATION, the start; status;
# pipestatus), the directory it started in (where the last prompt was);
# then, when the environment changed, its record. $status and $pipestatus
# are read first. A line with a leading space is kept out, as fish keeps it
# out of its history, and so is all of fish_private_mode. Only a failure,
# capture, or a dead daemon go further (_hookd_after). fish charges each
# statement and function call (~5 and ~15 µs), and ~0.1 ms a command
# substitution: this is the prompt's whole path, with none.
function _hookd_postexec --on-event fish_postexec
    # The status, the pipestatus, and last the environment's values.
    set -l s $status $pipestatus "$PATH"\x1f"$VIRTUAL_ENV"\x1f"$CONDA_PREFIX"\x1f"$NODE_ENV"\x1f"$KUBECONFIG"\x1f"$AWS_PROFILE"\x1f"$DOCKER_CONTEXT"\x1f"$GOFLAGS"
    if string match -qr '^\S' -- $argv[1]; and not set -q fish_private_mode; and not set -q _hookd_own; and test -w $_hookd_spooldir
        read -l up _ <$_hookd_upf
        if set -q _hookd_fixed[1]
            # The fix command ran a fix: recorded as itself, timed from
            # the answer.
            printf '\nC1\0%s\0%s\0r\0%s\0' "$_hookd_nums[1] $_hookd_fixed[1] $_hookd_clock+$up $s[..-2]" $_hookd_cwd $_hookd_fixed[2] >>$_hookd_spool
            set -e _hookd_fixed
        else
            printf '\nC1\0%s\0%s\0r\0%s\0' "$_hookd_nums[1] $_hookd_clock+$up-$CMD_DURATION"ms" $_hookd_clock+$up $s[..-2]" $_hookd_cwd $argv[1] >>$_hookd_spool
        end
        test "$s[-1]" = "$_hookd_env"; or _hookd_envrec $_hookd_nums[1] $s[-1]
        test $s[1] = 0 -a -z "$_hookd_nonce" -a -e "$_hookd_alive"; or _hookd_after $s[1] $_hookd_nums[1]
        set -e _hookd_nums[1]
        set -q _hookd_nums[1]; or _hookd_grow
    else
        set -e _hookd_own
        test "$s[-1]" = "$_hookd_env"; or _hookd_envrec $_hookd_nums[1] $s[-1]
        test $s[1] = 0 -a -z "$_hookd_nonce" -a -e "$_hookd_alive"; or _hookd_after $s[1] 0
    end
    set -g _hookd_cwd $PWD
end

# _hookd_preexec (fish_preexec, under capture only) prints the marks that
# start a command's output: OSC 133;C for the terminal, then hookd's private
# mark naming the history row the output belongs to (none for a command
# that is not recorded), by the same test as _hookd_postexec's.
function _hookd_preexec
    set -g _hookd_ran 1
    if string match -qr '^\S' -- $argv[1]; and not set -q fish_private_mode; and test -w $_hookd_spooldir
        printf '\e]133;C\a\e]6973;hookd;%s;C;%s;%s\a' $_hookd_nonce $HOOKD_SESSION $_hookd_nums[1]
    else
        printf '\e]133;C\a'
    end
end

# _hookd_after STATUS SEQ: the mark that ends the output under capture
# (SEQ 0: the command was not recorded), the fixes after a failure (the only
# process on the prompt's path), and a dead daemon started again.
function _hookd_after
    if test -n "$_hookd_nonce"
        if test $argv[2] != 0
            printf '\e]6973;hookd;%s;D;%s;%s;%s\a\e]133;D;%s\a' $_hookd_nonce $HOOKD_SESSION $argv[2] $argv[1] $argv[1]
        else if test -n "$_hookd_ran"
            printf '\e]6973;hookd;%s;X;%s;%s\a\e]133;D;%s\a' $_hookd_nonce $HOOKD_SESSION $_hookd_nums[1] $argv[1]
        end
    end
    # Only a failure starts a process: up to three fixes, before the
    # prompt. (Interrupted commands get none.) Function names go along,
    # for the typo rules (fish's aliases are functions; its abbreviations
    # too).
    if test $argv[2] != 0 -a $argv[1] != 0 -a $argv[1] != 130; and test -x "$_hookd_bin"
        set -l captured
        test -z "$_hookd_nonce"; or set captured --captured
        string join ' ' -- (functions -a) (abbr --list) | command $_hookd_bin suggest --inline --shell fish --seq $argv[2] \
            --width $COLUMNS $captured --names 2>/dev/null
    end
    # A dead daemon is started again by the next prompt (its /proc/PID/exe is
    # gone): raw command lines and outputs do not wait for a new shell.
    test -e "$_hookd_alive"; or _hookd_daemon
    set -g _hookd_ran ''
    return 0
end

# _hookd_envrec SEQ VALUES writes the environment's record: the commands
# from sequence number SEQ on ran in it. Its names, then their values, each
# ended by \x1f (PATH joined with ":"); VALUES, as _hookd_postexec compares
# them, is kept for the next comparison.
function _hookd_envrec
    set -g _hookd_env $argv[2]
    test -w $_hookd_spooldir; or return 0
    begin
        printf '\nE1\0%s\0%s\0' $argv[1] "$_hookd_envn"
        _hookd_envwrite
        printf '\0'
    end >>$_hookd_spool
end

# _hookd_grow appends the next hundred sequence numbers to _hookd_nums, as
# words (1 to 99, then 100 to 199, …): fish adds only with math in a
# command substitution, which this takes once per hundred commands.
function _hookd_grow
    set -l d 0 1 2 3 4 5 6 7 8 9
    if test $_hookd_blk = 0
        set -l n 1 2 3 4 5 6 7 8 9
        set -ga _hookd_nums $n $n$d
        set -g _hookd_blk 1 # at start: no substitution
        return
    end
    set -ga _hookd_nums $_hookd_blk$d$d
    set -g _hookd_blk (math $_hookd_blk + 1)
end

# _hookd_arm KEY inserts the key typed (the first character of the prefix,
# `!`) and makes Enter run _hookd_enter, until the line is run.
function _hookd_arm
    commandline -i -- $argv[1]
    _hookd_arm_enter
end

# _hookd_arm_enter binds Enter (Ctrl-M and Ctrl-J) to _hookd_enter.
function _hookd_arm_enter
    test -z "$_hookd_armed"; or return 0
    set -g _hookd_armed 1
    for mode in $_hookd_enter_modes
        bind -M $mode \r _hookd_enter
        bind -M $mode \n _hookd_enter
    end
end

# _hookd_enter runs on Enter, once armed: it gives Enter back its own
# binding, rewrites a `?? QUESTION` line into `hookd ask -- 'QUESTION'`
# (quoted: nothing in it is expanded or run, and the line re-asks the same
# question when recalled), and a line that is a mention alone (!!ctx,
# !-2ctx, !42ctx) into `hookd ask --pin REF`, then runs the line as Enter
# would.
function _hookd_enter
    set -g _hookd_armed ''
    for mode in $_hookd_enter_modes
        bind -M $mode \r execute
        bind -M $mode \n execute
    end
    set -l lines (commandline)
    if string match -qr -- $_hookd_prefix_re "$lines[1]"
        set -l q (string replace -r -- $_hookd_prefix_re'\s*' '' $lines[1]) $lines[2..]
        set q (string join \n -- $q | string replace -r '\s+$' '' | string collect)
        commandline -r -- (_hookd_ask_word)" ask -- "(_hookd_quote "$q")
        # An offer belongs to the question that made it.
        test -e $_hookd_fixdir/$HOOKD_SESSION.next; and true >$_hookd_fixdir/$HOOKD_SESSION.next
        # Once the question is answered, the first command of the answer
        # goes on the next command line, to edit, or run with Enter (fish
        # takes a new command line from fish_postexec; a one-shot handler,
        # defined here, leaves the prompt's path alone).
        function _hookd_offer_line --on-event fish_postexec
            functions -e _hookd_offer_line
            set -l f $_hookd_fixdir/$HOOKD_SESSION.next
            test -s $f; or return 0
            set -l c (string collect <$f)
            true >$f
            commandline -r -- $c
        end
    else if test (count $lines) = 1; and set -l m (string match -r -- '^\s*!(!|-[0-9]+|[0-9]+)ctx\s*$' $lines[1])
        set -l ref $m[2]
        test "$ref" != '!'; or set ref -1
        commandline -r -- (_hookd_ask_word)" ask --pin $ref"
    end
    commandline -f execute
end

# _hookd_risk_of CMD prints the risk level of an offered command and why it
# is offered, one per line, from the offer's risk file (package offer's
# RiskPath), found by the command itself: high when it is not there.
function _hookd_risk_of
    set -l f $_hookd_fixes.risk
    if test -r $f
        while read -lz l; and read -lz w; and read -lz c
            if test "$c" = "$argv[1]"
                printf '%s\n%s\n' $l $w
                return 0
            end
        end <$f
    end
    printf 'high\n\n'
end

# _hookd_first_safe prints the number (1 to 3) of the first of the fixes
# given that is not high risk; nothing when every one is.
function _hookd_first_safe
    set -l i 0
    for c in $argv
        set i (math $i + 1)
        set -l r (_hookd_risk_of $c)
        if test "$r[1]" != high
            echo $i
            return 0
        end
    end
end

# _hookd_fix runs fix N (1 to 3) of the last failed command, after showing it
# exactly and asking, with its risk: y for a low or medium one, the word yes
# for a high one; it is then recorded as itself. fix with no number is the
# first fix that is not high risk (none: it says so, and runs nothing).
# fix --ai asks the LLM too.
function _hookd_fix
    # The line of the fix command is hookd's own, not the user's command:
    # unless it runs a fix (recorded as itself), it is not recorded, nor a
    # failure to fix (in stats or "it worked before"), and the fixes on
    # offer stay those of the last failed command.
    set -g _hookd_own 1
    set -l n $argv[1]
    if test "$n" = --ai
        command $_hookd_bin suggest --ai --failed
        return
    end
    if test -n "$n"; and not contains -- $n 1 2 3
        printf 'usage: fix [1|2|3] | fix --ai\n' >&2
        return 2
    end
    set -l all
    set -l f $_hookd_fixes
    test -r $f; or set f /dev/null
    while read -lz c
        set -a all $c
    end <$f
    if test -z "$n"
        set n (_hookd_first_safe $all)
        if test -z "$n"; and set -q all[1]
            printf 'hookd: every fix of the last command is high risk: %s N runs fix N (1 to %s) once you type yes\n' \
                $_hookd_fixcmd (count $all) >&2
            return 1
        end
        test -n "$n"; or set n 1
    end
    set -l c $all[$n]
    if test -z "$c"
        printf 'hookd: no fix %s for the last command\n' $n >&2
        return 1
    end
    # Shown exactly; quoted when it holds control characters or anything
    # beyond ASCII, which must not reach the terminal raw.
    if string match -qr '[^\x20-\x7e]' -- $c
        string escape -- $c
    else
        printf '%s\n' $c
    end
    if string match -q '*\[REDACTED\]*' -- $c
        printf 'hookd: a secret was redacted from it: not run. %s puts it on the command line, to put the secret back in place of [REDACTED]\n' \
            (test -n "$_hookd_fixkey"; and echo $_hookd_fixkey; or echo 'the fix key') >&2
        return 1
    end
    set -l r (_hookd_risk_of $c)
    if test "$r[1]" = high
        set -l why ''
        test -n "$r[2]"; and set why ": $r[2]"
        read -l -P "run it (high risk$why)? type yes, then Enter: " a; or return 1
        test "$a" = yes; or return 1
    else
        read -l -P "run it ($r[1] risk)? [y/N, then Enter] " a; or return 1
        string match -qr '^[yY]' -- $a; or return 1
    end
    # The fix is recorded as itself, timed from here: the wait for the
    # answer is not part of its duration, nor are the question and the
    # answer part of its output (under capture, its output starts again
    # here: the scanner drops what the same row had so far).
    set -l up 0
    read up _ <$_hookd_upf
    set -g _hookd_fixed $_hookd_clock+$up $c
    set -e _hookd_own
    test -z "$_hookd_nonce"; or printf '\e]6973;hookd;%s;C;%s;%s\a' $_hookd_nonce $HOOKD_SESSION $_hookd_nums[1]
    eval $c
end

# _hookd_fix_key (bound to Ctrl-X f) puts the first fix that is not high
# risk on the command line, to edit or run with Enter; pressed again, the
# next one (a high-risk one is named so). When every fix is high risk, it
# puts none there by itself: fix N shows one.
function _hookd_fix_key
    set -l all
    set -l f $_hookd_fixes
    test -r $f; or set f /dev/null
    while read -lz c
        test -n "$c"; and set -a all $c
    end <$f
    set -q all[1]; or return 0
    set -l line (commandline | string collect)
    set -l i (contains -i -- $line $all)
    set -l n
    if test -n "$i"
        set n (math $i % (count $all) + 1)
    else
        set n (_hookd_first_safe $all)
        if test -z "$n"
            echo
            printf 'hookd: every fix of the last command is high risk: %s N shows fix N\n' $_hookd_fixcmd >&2
            commandline -f repaint
            return 0
        end
    end
    set -l r (_hookd_risk_of $all[$n])
    if test "$r[1]" = high
        echo
        set -l why ''
        test -n "$r[2]"; and set why ": $r[2]"
        printf 'hookd: high risk%s\n' $why >&2
        commandline -f repaint
    end
    commandline -r -- $all[$n]
end

# _hookd_ai_key (bound to Ctrl-X l) asks the LLM about the last failed
# command, as fix --ai does: the analysis is printed above the prompt, and
# its fixes are then the ones the fix key and fix N offer.
function _hookd_ai_key
    if not test -x "$_hookd_bin"
        printf 'hookd: %s is missing\n' $_hookd_bin >&2
        return 0
    end
    echo
    command $_hookd_bin suggest --ai --failed </dev/null
    commandline -f repaint
end

# _hookd_search (the search key) runs hookd search on the terminal, with
# the command line as the query: the command chosen goes on the line,
# exactly, ready to run or to edit; after Esc the line stays as it was.
function _hookd_search
    test -x "$_hookd_bin"; or return 0
    set -l out (command $_hookd_bin search --widget fish --query=(commandline | string collect) </dev/tty | string collect)
    or begin
        commandline -f repaint
        return 0
    end
    set out (string replace -r '\.$' '' -- $out | string collect)
    set -l parts (string split -m 1 \n -- $out)
    switch $parts[1]
        case accept edit run
        case '*'
            commandline -f repaint
            return 0
    end
    commandline -r -- "$parts[2]"
    commandline -f repaint
    test "$parts[1]" != run; or commandline -f execute
end

# _hookd_complete completes the words of a hookd command line (or a
# question after the ask prefix, as hookd ask): hookd itself says what fits
# (subcommands, flags, prompt-file names, with descriptions after a tab, as
# fish shows them), or that file names do.
function _hookd_complete
    set -l w (commandline -opc)[2..] (commandline -ct)
    set -l out (command $_hookd_bin __complete -- $w 2>/dev/null)
    if test "$out[1]" = :files
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\n' $out
end

# _hookd_daemon starts the hookd daemon when it is not running, and notes the
# path that tells, at each prompt without a process, that it still runs:
# /proc/PID/exe, which a process has while it runs and loses when it dies.
# Where there is no /proc, "/", which always exists, once the pid file names
# a daemon. The daemon starts in the
# background, disowned (no job notice); quiet when the binary is missing,
# tried at most once a second: the records wait in the spool meanwhile.
function _hookd_daemon
    set -g _hookd_alive ''
    set -l pid ''
    test -r $_hookd_pidfile; and read -l pid _ <$_hookd_pidfile
    if test -z "$pid"
    else if test -e /proc/$fish_pid/exe
        test -e /proc/$pid/exe; and set -g _hookd_alive /proc/$pid/exe
    else
        # (fish's kill is a function that starts a process: without /proc
        # the pid file is trusted.)
        set -g _hookd_alive /
    end
    set -l now 0
    # The uptime's whole seconds ("now" without /proc), read as such.
    read -l -d . n _ <$_hookd_upf; and set now $n
    if test -z "$_hookd_alive" -a "$now" != "$_hookd_tried"; and test -x "$_hookd_bin"
        set -g _hookd_tried $now
        command $_hookd_bin daemon --detach </dev/null >/dev/null 2>&1 &
        disown 2>/dev/null
    end
    return 0
end

# _hookd_start runs the start-up, then erases every start-up function
# (itself too), so that nothing of it is left for the prompt's path.
function _hookd_start
    _hookd_init
    functions -e _hookd_init _hookd_init_capture _hookd_on_tty _hookd_proxy _hookd_handover _hookd_init_session \
        _hookd_init_env _hookd_init_hooks _hookd_init_ask _hookd_init_fix _hookd_init_search _hookd_init_complete \
        _hookd_init_daemon _hookd_start
    set -q _hookd_early_fn; and functions -e hookd
    set -e _hookd_early _hookd_early_fn _hookd_early_capture
    # (config.fish's line leaves $status as it found it: 0.)
    return 0
end

# The early line (`hookd init fish --early | source`, config.fish's first
# line), where it does not re-execute the shell under the proxy (it is there
# already, or capture is off), prints this file with _hookd_early set and
# without the @run@ line below: everything is defined, nothing runs yet.
# This `hookd` function then answers the usual line at the end of
# config.fish, `hookd init fish | source`, without starting a process: that
# line then runs _hookd_start. Under the proxy, which has read this file
# before config.fish (FishEarly), it answers the early line too, with
# nothing left to do. Any other hookd command (or those lines with other
# flags, or HOOKD_CAPTURE changed since) goes to the binary; a `hookd`
# function of your own is left alone.
if set -q _hookd_early; and not functions -q hookd
    set -g _hookd_early_fn 1
    set -g _hookd_early_capture unset
    set -q HOOKD_CAPTURE; and set _hookd_early_capture "$HOOKD_CAPTURE"
    function hookd
        set -l c unset
        set -q HOOKD_CAPTURE; and set c "$HOOKD_CAPTURE"
        if test "$argv[1]" = init -a "$argv[2]" = fish -a "$c" = "$_hookd_early_capture"
            switch "$argv[3..]"
                case ''
                    printf '%s\n' _hookd_start
                    return 0
                case --early
                    return 0
            end
        end
        command hookd $argv
    end
end

# @run@
_hookd_start
