# hookd shell integration for bash (4.4 or newer).
# Load it from ~/.bashrc with two lines, the first and the last:
#   eval "$(hookd init bash --early)"   # enters the capturing proxy here
#   …
#   eval "$(hookd init bash)"           # the hooks, keys and completion
# (the last line alone works too; the rc file then runs twice under capture).
#
# On every prompt this code appends one record to a spool file private to this
# shell, using builtins only: no process is started while you work, except
# after a failed command, when `hookd suggest --inline` prints its fixes. The
# hookd daemon moves the records into the history database. `hookd init` fills
# in the lines marked @name@ (the binary, the state directory, the settings)
# and leaves the comment lines out; nothing else is generated.
#
# The file reads as a list of named steps, in the same order as zsh.sh, so
# that the two can be read side by side. To add a piece: a start-up step of
# its own (_hookd_init_NAME, called from _hookd_init, taken away in
# _hookd_start), and on the prompt's path no process and no subshell (the
# per-command cost is measured: bench/hook_overhead.sh, docs/benchmarks.md).
#
#   start-up (run once by _hookd_start, then unset: none of it is left for
#   the prompt's path)
#     _hookd_init            guards, the values hookd init fills in, the steps:
#     _hookd_init_capture      enter the capturing proxy (capture on)
#       _hookd_proxy             re-execute under it (the early line's work)
#     _hookd_init_session      the session: its id, spool, header, XFSZ trap
#       _hookd_query             a builtin's listing, without a subshell
#     _hookd_init_env          the environment's names (fix.watch_env), first record
#     _hookd_init_hooks        the prompt hooks (PS0, PROMPT_COMMAND)
#     _hookd_init_ask          the `??` and `!!ctx` keys
#     _hookd_init_fix          the fix command, the fix and AI keys
#       _hookd_key_map           where a key's function is listed (and search's)
#     _hookd_init_search       Ctrl-R: hookd search
#     _hookd_init_complete     completion of hookd's command line
#     _hookd_init_daemon       the daemon, started if it is not running
#   the prompt's path
#     _hookd_precmd          records the command that just finished
#     _hookd_after           failures, capture marks, PS0 repair, a dead daemon
#     _hookd_envrec          the environment's record, when it changed
#     _hookd_first           hookd's precmd back in front, whatever was added
#   the `??` keys
#     _hookd_arm_prefix, _hookd_arm_bang, _hookd_insert, _hookd_arm,
#     _hookd_enter, _hookd_accept_line, _hookd_offer_line
#   the fixes
#     _hookd_fix (the fix command), _hookd_own, _hookd_fix_key, _hookd_ai_key
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
_hookd_init() {
  [[ $- == *i* ]] || return 0
  [[ -z ${_hookd_loaded-} ]] || return 0
  if ((BASH_VERSINFO[0] < 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] < 4))); then
    builtin printf 'hookd: bash %s is too old (4.4 or newer is needed); commands are not recorded in this shell\n' \
      "$BASH_VERSION" >&2
    return 0
  fi
  _hookd_loaded=1

  _hookd_bin=hookd # @bin@
  _hookd_capture=off # @capture@
  _hookd_fixcmd=fix # @fixcmd@
  _hookd_fixkey= # @fixkey@
  _hookd_aikey= # @aikey@
  _hookd_prefix= # @prefix@
  _hookd_searchkey= # @searchkey@
  _hookd_searchup= # @searchup@
  _hookd_searchreplace= # @searchreplace@
  _hookd_watch= # @watch@
  # hookd's files, as package paths lays them out (from the XDG variables
  # as adrg/xdg reads them: "~/" expanded where a shell would not): the
  # shell writes where the daemon reads, and derives none of them itself.
  _hookd_state= # @state@
  _hookd_spooldir= # @spooldir@
  _hookd_fixdir= # @offerdir@
  _hookd_pidfile= # @pidfile@

  _hookd_init_capture
  _hookd_init_session
  _hookd_init_env
  _hookd_init_hooks
  _hookd_init_ask
  _hookd_init_fix
  _hookd_init_search
  _hookd_init_complete
  _hookd_init_daemon
}

# _hookd_init_capture: this shell runs under `hookd shell`, a PTY proxy,
# when capture is on. HOOKD_PTY names the proxy's terminal: a shell on it (a
# nested shell, `exec bash`) is already captured and prints the marks that
# cut the output per command. A shell on another terminal (a new tmux pane,
# say) enters a proxy of its own: best at the early line (`eval "$(hookd
# init bash --early)"`, the rc file's first line), which re-executes the
# shell before the rest of the rc file runs; where the early line ran but
# could not, this shell goes on without capture (`hookd status` says why).
# Without the early line, here: once, after checking that the proxy can
# start, and then the whole rc file runs again in the new shell (`hookd
# status` suggests the early line).
_hookd_init_capture() {
  _hookd_nonce=
  [[ $_hookd_capture == pty ]] || return 0
  if [[ -n ${HOOKD_PTY-} && -n ${HOOKD_CAPTURE_NONCE-} && /dev/stdin -ef $HOOKD_PTY ]]; then
    _hookd_nonce=$HOOKD_CAPTURE_NONCE
  elif [[ -z ${_hookd_early-} && -t 0 && -t 1 && -x $_hookd_bin ]] &&
    command "$_hookd_bin" shell --check --shell "$BASH" </dev/null >/dev/null 2>&1; then
    _hookd_proxy "$_hookd_bin" --rc-again
  fi
  return 0
}

# _hookd_proxy BIN [FLAG] re-executes this shell under BIN's `hookd shell`,
# with the same command line (--rcfile, a login shell's "-bash"), read
# without a fork; without /proc, as an interactive shell. It is all that
# the early line runs in a terminal that is not captured yet (hookd init
# --early prints this function and a call), so it stands alone.
_hookd_proxy() {
  [[ $- == *i* && -t 0 && -t 1 && -x $1 ]] || return 0
  local -a _hookd_argv=()
  builtin mapfile -d '' -t _hookd_argv 2>/dev/null </proc/$$/cmdline
  if ((${#_hookd_argv[@]} > 0)); then
    builtin exec "$1" shell ${2:+"$2"} --shell "$BASH" -- "${_hookd_argv[@]}"
  elif builtin shopt -q login_shell; then
    builtin exec "$1" shell ${2:+"$2"} --login --shell "$BASH"
  else
    builtin exec "$1" shell ${2:+"$2"} --shell "$BASH"
  fi
}

# _hookd_init_session starts this shell's session: its id (HOOKD_SESSION
# is exported for the hookd CLI, but a child shell makes its own), its
# spool file and the header record, the clock, and the XFSZ trap. No
# process is started (the spool directory is made by hookd init).
_hookd_init_session() {
  # The time as "seconds.micros": EPOCHREALTIME, or before bash 5 whole
  # seconds from SECONDS and the shell's start.
  builtin printf -v _hookd_epoch0 '%(%s)T' -1
  _hookd_epoch0=$((_hookd_epoch0 - SECONDS))
  # shellcheck disable=SC2016 # expanded in PS0
  if [[ -n ${EPOCHREALTIME-} ]]; then
    _hookd_now='$EPOCHREALTIME'
  else
    _hookd_now='$((_hookd_epoch0 + SECONDS)).0'
  fi
  _hookd_t0=${EPOCHREALTIME:-$((_hookd_epoch0 + SECONDS)).0}
  HOOKD_SESSION=${_hookd_t0//[!0-9]/}-$$-$RANDOM
  builtin export HOOKD_SESSION
  _hookd_spool=$_hookd_spooldir/$HOOKD_SESSION.spool
  _hookd_fixes=$_hookd_fixdir/$HOOKD_SESSION
  _hookd_seq=0 _hookd_s=0 _hookd_ps='' _hookd_alive='' _hookd_tried=-1
  _hookd_cwd=$PWD
  _hookd_hc=${HISTCMD-0}
  builtin declare -gA _hookd_e
  # The user's umask, read without a process (Linux has it in
  # /proc/PID/status), so that hookd's files are made 0600 and the umask
  # put back; where it cannot be read, a subshell keeps umask 077 to itself.
  _hookd_umask=
  local _hookd_k _hookd_v
  while IFS=$': \t' builtin read -r _hookd_k _hookd_v; do
    [[ $_hookd_k != Umask ]] || { _hookd_umask=$_hookd_v; break; }
  done 2>/dev/null </proc/$$/status
  # Under `ulimit -f`, a spool write past the limit would kill the shell
  # with SIGXFSZ. A trap that does nothing makes the write fail instead;
  # unlike ignoring the signal, it is not passed on to the commands you run.
  # A trap of your own is left alone.
  _hookd_query 'builtin trap -p XFSZ'
  [[ -n $REPLY ]] || builtin trap ':' XFSZ

  [[ -d $_hookd_spooldir ]] || command mkdir -p -m 700 -- "$_hookd_state" "$_hookd_spooldir" 2>/dev/null
  # The session header.
  if [[ -n $_hookd_umask ]]; then
    builtin umask 077
    builtin printf '%s\0' $'\nS2' bash "$BASH_VERSION" "$$" "${HOSTNAME-}" "${USER-}" "${UID-}" \
      "$_hookd_t0" "${_hookd_nonce:+pty}${_hookd_nonce:-off}" 2>/dev/null >>"$_hookd_spool"
    builtin umask "$_hookd_umask"
  else
    (
      builtin trap '' XFSZ
      builtin umask 077
      builtin printf '%s\0' $'\nS2' bash "$BASH_VERSION" "$$" "${HOSTNAME-}" "${USER-}" "${UID-}" \
        "$_hookd_t0" "${_hookd_nonce:+pty}${_hookd_nonce:-off}" 2>/dev/null >>"$_hookd_spool"
    ) 2>/dev/null
  fi
  return 0
}

# _hookd_query CODE runs CODE (builtins that list something: a trap, key
# bindings) and sets REPLY to what it printed, without the subshell of
# $(…): through this session's offer file, made 0600 and left empty (no
# fix is offered yet). Where the umask is unknown, $(…) it is. Start-up only.
_hookd_query() {
  REPLY=
  if [[ -n $_hookd_umask && -w $_hookd_fixdir ]]; then
    builtin umask 077
    builtin eval "$1" 2>/dev/null >|"$_hookd_fixes"
    builtin umask "$_hookd_umask"
    IFS= builtin read -r -d '' REPLY 2>/dev/null <"$_hookd_fixes"
    : 2>/dev/null >|"$_hookd_fixes"
  else
    REPLY=$(builtin eval "$1" 2>/dev/null)
  fi
  return 0
}

# _hookd_init_env: the environment a command runs in, noted as a record
# in the spool at start-up and then whenever it changes (_hookd_envrec,
# checked by the comparison _hookd_precmd makes anyway): PATH and the
# variables of the environment managers, and fix.watch_env's (_hookd_watch:
# hookd init lets only variable names through). The watched names are
# spliced into the checks of _hookd_precmd and _hookd_envrec: their text is
# read without a subshell (_hookd_query) and defined again (eval).
_hookd_init_env() {
  _hookd_env='' _hookd_envn=(PATH VIRTUAL_ENV CONDA_PREFIX NODE_ENV KUBECONFIG AWS_PROFILE DOCKER_CONTEXT GOFLAGS)
  local _hookd_n
  if [[ -n $_hookd_watch ]]; then
    # shellcheck disable=SC2016 # the text of an expansion, replaced
    local _hookd_p='${GOFLAGS-}' _hookd_w=''
    local -a _hookd_ws
    IFS=' ' builtin read -r -a _hookd_ws <<<"$_hookd_watch"
    for _hookd_n in "${_hookd_ws[@]}"; do _hookd_w+=":\${$_hookd_n-}"; done
    _hookd_envn+=("${_hookd_ws[@]}")
    _hookd_query 'builtin declare -f _hookd_precmd _hookd_envrec'
    [[ $REPLY == *"$_hookd_p"* ]] && builtin eval "${REPLY//"$_hookd_p"/"$_hookd_p$_hookd_w"}"
  fi
  # The names as the records list them (whatever IFS is).
  _hookd_envnl=''
  for _hookd_n in "${_hookd_envn[@]}"; do _hookd_envnl+=" $_hookd_n"; done
  _hookd_envrec 1
  return 0
}

# _hookd_init_hooks puts the prompt hooks in place: PS0 notes a command's
# start (and, under capture, prints the marks that start its output), and
# _hookd_precmd runs first in PROMPT_COMMAND.
_hookd_init_hooks() {
  # PS0 is expanded after a command line is read and before it runs, and not
  # for an empty line. There, looking up a key in an empty array sets the
  # start time, without printing anything or starting a process; precmd
  # empties it again once the command is recorded.
  _hookd_t0=
  # shellcheck disable=SC2016 # expanded in PS0
  _hookd_ps0='${_hookd_e[${_hookd_t0:='"$_hookd_now"'}]-}'
  # Under capture, PS0 also prints the marks that start the command's
  # output: OSC 133;C for the terminal, then hookd's private mark naming the
  # history row the output will belong to (the next sequence number; precmd
  # says whether the command was recorded under it).
  if [[ -n $_hookd_nonce ]]; then
    # shellcheck disable=SC2016 # expanded in PS0
    _hookd_ps0+='\e]133;C\a\e]6973;hookd;'$_hookd_nonce';C;'$HOOKD_SESSION';$((_hookd_seq + 1))\a'
  fi
  PS0=${PS0-}$_hookd_ps0
  _hookd_ps0all=$PS0$_hookd_env _hookd_r=0
  # bash 4.4 has no EPOCHREALTIME: there precmd takes its end time as PS0
  # its start. Rewritten here once (a subshell, on bash 4.4 only), so that
  # bash 5 does not pay on every prompt for a fallback it never uses.
  if [[ -z ${EPOCHREALTIME-} ]]; then
    local _hookd_f
    _hookd_f=$(builtin declare -f _hookd_precmd)
    builtin eval "${_hookd_f//'$EPOCHREALTIME'/$_hookd_now}"
  fi

  # Run first in PROMPT_COMMAND, so that $? and PIPESTATUS are the command's.
  # bash restores both after PROMPT_COMMAND, so PS1 still sees them.
  # PROMPT_COMMAND may be a string or (bash 5.1) an array.
  if [[ -n ${PROMPT_COMMAND+set} && ${PROMPT_COMMAND@a} == *a* ]]; then
    PROMPT_COMMAND=(_hookd_precmd "${PROMPT_COMMAND[@]}")
  else
    # shellcheck disable=SC2128,SC2178
    PROMPT_COMMAND=_hookd_precmd${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}
  fi
  return 0
}

# _hookd_init_ask: `?? QUESTION` and `!!ctx` at the prompt (ask.prefix; ''
# turns them off) are rewritten in the line editor before the shell reads
# the line, so that neither history expansion nor globbing sees them. Enter
# keeps its own binding until the first character of the prefix or a `!`
# is typed (_hookd_arm_prefix, _hookd_arm_bang): only then does it run
# _hookd_accept_line before accept-line, so that an ordinary command line
# costs nothing more. Only where Enter is accept-line (another framework's
# binding is left alone), checked without a process (_hookd_query).
_hookd_init_ask() {
  _hookd_asked='' _hookd_ask_cmd=hookd _hookd_armed='' _hookd_maps=emacs
  _hookd_offered='' _hookd_offer_hc='' _hookd_offer_bound=()
  [[ -n $_hookd_prefix ]] || return 0
  _hookd_query 'builtin bind -q accept-line'
  [[ $REPLY == *'"\C-m"'* ]] || return 0
  # The rewritten line says `hookd` when PATH finds this binary under
  # that name (looked up without a process), else the binary's path.
  local _hookd_d _hookd_found=''
  local -a _hookd_dirs
  IFS=: builtin read -r -a _hookd_dirs <<<"${PATH-}"
  for _hookd_d in "${_hookd_dirs[@]}"; do
    if [[ -x ${_hookd_d:-.}/hookd && ! -d ${_hookd_d:-.}/hookd ]]; then
      [[ ${_hookd_d:-.}/hookd -ef $_hookd_bin ]] && _hookd_found=1
      break
    fi
  done
  [[ -n $_hookd_found ]] || builtin printf -v _hookd_ask_cmd '%q' "$_hookd_bin"
  local _hookd_km _hookd_k=${_hookd_prefix:0:1}
  [[ $_hookd_k != [\\\"] ]] || _hookd_k=\\$_hookd_k
  # vi's keymaps too when vi mode is on (set -o vi, or the inputrc's
  # editing-mode), as for the fix keys: each binding costs bash ~0.2 M
  # instructions at every start.
  _hookd_maps=emacs
  [[ ! -o vi ]] || _hookd_maps='emacs vi-insert vi-command'
  for _hookd_km in $_hookd_maps; do
    builtin bind -m "$_hookd_km" -x '"\C-x\C-h1": _hookd_accept_line'
    builtin bind -m "$_hookd_km" '"\C-x\C-h2": accept-line'
    builtin bind -m "$_hookd_km" '"\C-x\C-h3": ""'
    [[ $_hookd_km == vi-command ]] && continue # (? searches there)
    builtin bind -m "$_hookd_km" -x "\"$_hookd_k\": _hookd_arm_prefix"
    [[ $_hookd_k == '!' ]] || builtin bind -m "$_hookd_km" -x '"!": _hookd_arm_bang'
    # Pasted text does not go through the keys: a paste arms Enter too.
    builtin bind -m "$_hookd_km" -x '"\C-x\C-h4": _hookd_arm'
    builtin bind -m "$_hookd_km" '"\C-x\C-h5": bracketed-paste-begin'
    builtin bind -m "$_hookd_km" '"\e[200~": "\C-x\C-h4\C-x\C-h5"'
  done
  return 0
}

# _hookd_init_fix defines `fix` (or the name the config gives), unless that
# name is taken (an alias, a function, a command; hookd init lets only a
# plain word through), and binds Ctrl-X f (fix.key), which puts the next
# fix on the command line, and Ctrl-X l (fix.ai_key), which asks the LLM
# about the last failure: in the emacs keymap, and in vi's insert keymap
# when vi mode is on (set -o vi, or the inputrc's editing-mode), where the
# key is free: bound to nothing, not even to a macro or a shell command.
# All read without a process (_hookd_query). bind -p lists every readline
# function's keys, which costs bash ~13 M instructions for the emacs keymap
# (~5 ms): a key under Ctrl-X or Esc is looked up in that prefix's own
# keymap (emacs-ctlx, emacs-meta: ~2 M); docs/benchmarks.md.
_hookd_init_fix() {
  if [[ -n $_hookd_fixcmd ]] && ! builtin type -t "$_hookd_fixcmd" >/dev/null 2>&1; then
    builtin eval "$_hookd_fixcmd() { _hookd_fix \"\$@\"; }"
  fi
  [[ -n $_hookd_fixkey$_hookd_aikey ]] || return 0
  local _hookd_bound _hookd_km _hookd_kms=emacs _hookd_k _hookd_f _hookd_m _hookd_r _hookd_p _hookd_pm=
  [[ ! -o vi ]] || _hookd_kms='emacs vi-insert'
  for _hookd_km in $_hookd_kms; do
    # Macros and shell commands, with their whole key sequences.
    _hookd_query "builtin bind -m $_hookd_km -s; builtin bind -m $_hookd_km -X"
    _hookd_bound=$REPLY
    for _hookd_k in "$_hookd_fixkey:_hookd_fix_key" "$_hookd_aikey:_hookd_ai_key"; do
      _hookd_f=${_hookd_k##*:} _hookd_k=${_hookd_k%:*}
      [[ -n $_hookd_k && $_hookd_bound != *"\"$_hookd_k\": "* ]] || continue
      # Readline functions, in the keymap of the key's prefix.
      _hookd_key_map "$_hookd_km" "$_hookd_k"
      [[ $_hookd_m == "${_hookd_pm-}" ]] || { _hookd_query "builtin bind -m $_hookd_m -p"; _hookd_pm=$_hookd_m _hookd_p=$REPLY; }
      [[ $_hookd_p == *"\"$_hookd_r\": "* ]] ||
        builtin bind -m "$_hookd_km" -x "\"$_hookd_k\": $_hookd_f" 2>/dev/null
    done
  done
  return 0
}

# _hookd_key_map KEYMAP KEY sets _hookd_m to the keymap whose bind -p
# lists KEY's readline function and _hookd_r to KEY as it is listed there
# (the caller's locals): a key under Ctrl-X or Esc is in its prefix's own
# keymap (emacs-ctlx, emacs-meta), which costs ~2 M instructions to list
# where the whole emacs keymap costs ~13 M. For _hookd_init_fix and
# _hookd_init_search, which decide whether a key is free.
_hookd_key_map() {
  _hookd_m=$1 _hookd_r=$2
  case $1:$2 in
    emacs:'\C-x'?*) _hookd_m=emacs-ctlx _hookd_r=${2#'\C-x'} ;;
    emacs:'\e'?*) _hookd_m=emacs-meta _hookd_r=${2#'\e'} ;;
  esac
}

# _hookd_init_search binds Ctrl-R (search.key), and search.up_key (none
# unless set), to hookd search, which searches every command and what it
# printed: in the emacs keymap, and in vi's insert keymap when vi mode is on,
# where the key is free or holds readline's own history search
# (reverse-search-history, previous-history, history-search-backward), and
# not where another tool holds it (fzf's Ctrl-R, a macro, a shell command)
# unless search.replace says so. All read without a process (_hookd_query),
# once per keymap: the macros and shell commands, and the keys of the
# history search a key usually holds (bind -q, one function's keys); bind -p
# (every function's, ~5 ms in the emacs keymap) is asked only about a key
# that holds something else. The key runs \C-x\C-h6 (the search) then
# \C-x\C-h7, which is accept-line after a search that chose to run the
# command.
_hookd_init_search() {
  _hookd_search_maps=
  [[ -n $_hookd_searchkey$_hookd_searchup ]] || return 0
  local _hookd_km _hookd_kms=emacs _hookd_k _hookd_q _hookd_bound _hookd_m _hookd_r
  [[ ! -o vi ]] || _hookd_kms='emacs vi-insert'
  for _hookd_km in $_hookd_kms; do
    if [[ -z $_hookd_searchreplace ]]; then
      _hookd_q="builtin bind -m $_hookd_km -s; builtin bind -m $_hookd_km -X; builtin printf '\\n@@\\n'"
      [[ -z $_hookd_searchkey ]] || _hookd_q+="; builtin bind -m $_hookd_km -q reverse-search-history"
      [[ -z $_hookd_searchup ]] || _hookd_q+="; builtin bind -m $_hookd_km -q previous-history"
      _hookd_query "$_hookd_q"
      _hookd_bound=$REPLY
    fi
    for _hookd_k in "$_hookd_searchkey" "$_hookd_searchup"; do
      [[ -n $_hookd_k ]] || continue
      if [[ -z $_hookd_searchreplace ]]; then
        # A macro or a shell command (before @@): another tool's.
        [[ $_hookd_bound != *"\"$_hookd_k\": "*$'\n@@\n'* ]] || continue
        if [[ $_hookd_bound != *$'\n@@\n'*"\"$_hookd_k\""* ]]; then
          # Another readline function, in the keymap of the key's prefix?
          _hookd_key_map "$_hookd_km" "$_hookd_k"
          _hookd_query "builtin bind -m $_hookd_m -p"
          case $REPLY in
            *"\"$_hookd_r\": reverse-search-history"$'\n'* | *"\"$_hookd_r\": previous-history"$'\n'* | \
              *"\"$_hookd_r\": history-search-backward"$'\n'*) ;;
            *"\"$_hookd_r\": "*) continue ;;
          esac
        fi
      fi
      if [[ " $_hookd_search_maps " != *" $_hookd_km "* ]]; then
        _hookd_search_maps+="${_hookd_search_maps:+ }$_hookd_km"
        builtin bind -m "$_hookd_km" -x '"\C-x\C-h6": _hookd_search'
        builtin bind -m "$_hookd_km" '"\C-x\C-h7": ""'
      fi
      builtin bind -m "$_hookd_km" "\"$_hookd_k\": \"\\C-x\\C-h6\\C-x\\C-h7\"" 2>/dev/null
    done
  done
  return 0
}

# _hookd_init_complete: completion of hookd's command line, and of a
# question after the ask prefix (?? /review<Tab>), unless something else
# completes them.
_hookd_init_complete() {
  builtin complete -p hookd >/dev/null 2>&1 || builtin complete -F _hookd_complete hookd
  [[ -z $_hookd_prefix ]] || builtin complete -p "$_hookd_prefix" >/dev/null 2>&1 ||
    builtin complete -F _hookd_complete "$_hookd_prefix"
  return 0
}

# _hookd_init_daemon starts the daemon if it is not running.
_hookd_init_daemon() {
  _hookd_daemon
}

# _hookd_precmd writes the record of the command that just finished. It is
# on every prompt's path, so it is written for bash's speed, measured with
# callgrind (docs/benchmarks.md §1): builtins only, no eval, no subshell,
# no `local`, one printf format, and as few commands as can be (bash
# charges ~10-15k instructions for each). The body is small too, since
# bash copies a function's body on every call: what only a failure,
# capture or a changed PS0 needs is in _hookd_after.
_hookd_precmd() {
  _hookd_s=$? _hookd_ps="${PIPESTATUS[*]}"
  # Record only what bash put in its history list: that honours
  # `set +o history`, HISTIGNORE and HISTCONTROL=ignorespace. A line bash
  # left out may still be a repeat (ignoredups): recorded unless an ignore
  # rule could have been the reason. (HISTCMD and _hookd_hc are decimal:
  # compared as strings, they need no arithmetic.)
  # The directory test keeps a failing redirection quiet (it would be
  # reported before 2>&1 applies); a write that fails later, on a full
  # disk, reports into the spool itself, that is nowhere.
  if [[ -n $_hookd_t0 && -o history && -w $_hookd_spooldir && (${HISTCMD-0} != "$_hookd_hc" ||
    (${HISTCONTROL-} != *ignorespace* && ${HISTCONTROL-} != *ignoreboth* && -z ${HISTIGNORE-})) ]]; then
    # The numbers share a field; the end time is EPOCHREALTIME as it is
    # (bash 4.4: see _hookd_init). _hookd_r is the sequence number of
    # the record written at this prompt, 0 when there is none.
    {
      builtin printf '\nC1\0%s\0%s\0h\0' \
        "$((_hookd_r = _hookd_seq += 1)) $_hookd_t0 $EPOCHREALTIME $_hookd_s $_hookd_ps" "$_hookd_cwd"
      if [[ -z ${HISTTIMEFORMAT-} ]]; then
        builtin history 1
      else
        HISTTIMEFORMAT='' builtin history 1
      fi
      builtin printf '\0'
    } >>"$_hookd_spool" 2>&1
  fi
  # PS0 as hookd last left it is intact and the environment is as last
  # noted (PATH by its length; see _hookd_envrec): one string comparison;
  # the daemon runs (its /proc/PID/exe is there), and this function is still
  # the first prompt command (of an array, the first element is the one
  # meant).
  # shellcheck disable=SC2128
  [[ $_hookd_s == 0 && -z $_hookd_nonce && -e $_hookd_alive &&
    $PS0${#PATH}:${VIRTUAL_ENV-}:${CONDA_PREFIX-}:${NODE_ENV-}:${KUBECONFIG-}:${AWS_PROFILE-}:${DOCKER_CONTEXT-}:${GOFLAGS-} == "$_hookd_ps0all" &&
    $PROMPT_COMMAND == _hookd_precmd* ]] || _hookd_after
  _hookd_t0='' _hookd_hc=${HISTCMD-0} _hookd_cwd=$PWD _hookd_r=0
  return $_hookd_s
}

# _hookd_after follows _hookd_precmd when the command failed, under
# capture, when PS0 is not as hookd left it, when the environment changed,
# or when the daemon has died.
_hookd_after() {
  # The environment this command ran in, if it changed (the next command's
  # when this one was not recorded), before the fixes read it.
  _hookd_envrec "$((_hookd_seq + (_hookd_r == 0)))"
  # A dead daemon is started again by the next prompt: raw command lines
  # and outputs do not wait in the spool for a new shell.
  [[ -e $_hookd_alive ]] || _hookd_daemon
  # A PS0 that does not hold hookd's part any more gets it back.
  [[ $PS0 == *"$_hookd_ps0"* ]] || PS0+=$_hookd_ps0
  _hookd_ps0all=$PS0$_hookd_env
  # A command's end time is the first thing taken after it: when prompt
  # code was put before _hookd_precmd since (a PROMPT_COMMAND="x;
  # $PROMPT_COMMAND" after hookd's line, as direnv's hook does), hookd's
  # goes back to the front, from the next prompt on (the first prompt,
  # before any command, for what the rc file did after hookd's line).
  # shellcheck disable=SC2128 # (an array's first element)
  [[ $PROMPT_COMMAND == _hookd_precmd* ]] || _hookd_first
  # Under capture, the mark that ends the output: for a recorded command,
  # once the record is written (the proxy then stores the output under
  # this row); for one not recorded, that its output is not kept either.
  # The marks go out in one write with the prompt's, below, unless fixes
  # come in between.
  local _hookd_m=
  if [[ -z $_hookd_nonce ]]; then
    :
  elif ((_hookd_r)); then
    builtin printf -v _hookd_m '\e]6973;hookd;%s;D;%s;%s;%s\a\e]133;D;%s\a' "$_hookd_nonce" "$HOOKD_SESSION" \
      "$_hookd_r" "$_hookd_s" "$_hookd_s"
  elif [[ -n $_hookd_t0 ]]; then
    builtin printf -v _hookd_m '\e]6973;hookd;%s;X;%s;%s\a\e]133;D;%s\a' "$_hookd_nonce" "$HOOKD_SESSION" \
      "$((_hookd_seq + 1))" "$_hookd_s"
  fi
  # Only a failure starts a process: up to three fixes, before the
  # prompt. (Interrupted commands get none.)
  if ((_hookd_r && _hookd_s != 0 && _hookd_s != 130)) && [[ -x $_hookd_bin ]]; then
    builtin printf '%s' "$_hookd_m"
    _hookd_m=
    # Alias and function names go along, for the typo rules; listing
    # the functions takes a subshell, but only on this path.
    command "$_hookd_bin" suggest --inline --seq "$_hookd_r" --width "${COLUMNS:-80}" \
      ${_hookd_nonce:+--captured} --names 2>/dev/null <<<"${!BASH_ALIASES[*]} $(builtin compgen -A function)" || :
  fi
  [[ -z $_hookd_nonce ]] || builtin printf '%s\e]133;A\a' "$_hookd_m"
  return 0
}

# _hookd_envrec writes the environment's record when it changed since
# the last one: the commands from sequence number $1 on ran in it. Its
# names, then their values, each ended by \x1f: PATH whole, though
# _hookd_precmd and this check only its length, which costs less on every
# prompt than comparing it (bash matches == as a pattern, byte by byte). A
# \x1f in a value is written as U+241F (␟), so that it ends no value.
_hookd_envrec() {
  local _hookd_x=${#PATH}:${VIRTUAL_ENV-}:${CONDA_PREFIX-}:${NODE_ENV-}:${KUBECONFIG-}:${AWS_PROFILE-}:${DOCKER_CONTEXT-}:${GOFLAGS-} _hookd_n _hookd_v='' _hookd_e
  [[ $_hookd_x != "$_hookd_env" ]] || return 0
  _hookd_env=$_hookd_x
  for _hookd_n in "${_hookd_envn[@]}"; do
    _hookd_e=${!_hookd_n-}
    _hookd_v+=${_hookd_e//$'\x1f'/$'\xe2\x90\x9f'}$'\x1f'
  done
  builtin printf '\nE1\0%s\0%s\0%s\0' "$1" "$_hookd_envnl" "$_hookd_v" 2>/dev/null >>"$_hookd_spool"
}

# _hookd_first puts _hookd_precmd back at the front of PROMPT_COMMAND (a
# string, or a bash 5.1 array), where it is the first prompt code to run.
_hookd_first() {
  if [[ ${PROMPT_COMMAND@a} == *a* ]]; then
    local -a _hookd_pc=()
    local _hookd_c
    for _hookd_c in "${PROMPT_COMMAND[@]}"; do
      [[ $_hookd_c == _hookd_precmd ]] || _hookd_pc+=("$_hookd_c")
    done
    PROMPT_COMMAND=(_hookd_precmd "${_hookd_pc[@]}")
  else
    # shellcheck disable=SC2128,SC2178
    PROMPT_COMMAND=_hookd_precmd$'\n'${PROMPT_COMMAND/_hookd_precmd/}
  fi
}

# _hookd_arm_prefix and _hookd_arm_bang insert the key typed (the first
# character of the prefix, `!`) and make Enter run _hookd_accept_line
# before accept-line, until the line is accepted.
_hookd_arm_prefix() { _hookd_insert "${_hookd_prefix:0:1}"; }
_hookd_arm_bang() { _hookd_insert '!'; }
_hookd_insert() {
  READLINE_LINE=${READLINE_LINE:0:READLINE_POINT}$1${READLINE_LINE:READLINE_POINT}
  ((READLINE_POINT += ${#1}))
  _hookd_arm
}

# _hookd_arm makes Enter run _hookd_accept_line before accept-line, until
# the line is accepted.
_hookd_arm() {
  [[ -z $_hookd_armed ]] || return 0
  _hookd_armed=1
  _hookd_enter '"\C-x\C-h1\C-x\C-h2\C-x\C-h3"'
}

# _hookd_enter binds Enter (Ctrl-M and Ctrl-J) to $1 in the emacs and vi keymaps.
_hookd_enter() {
  local _hookd_km
  for _hookd_km in $_hookd_maps; do
    builtin bind -m "$_hookd_km" "\"\\C-m\": $1"
    builtin bind -m "$_hookd_km" "\"\\C-j\": $1"
  done
}

# _hookd_accept_line runs on Enter, before accept-line: it rewrites a
# `?? QUESTION` line into `hookd ask -- 'QUESTION'` (single-quoted: nothing
# in it is expanded or run, and the line re-asks the same question when
# recalled), and a line that is a mention alone (!!ctx, !-2ctx, !42ctx)
# into `hookd ask --pin REF`.
_hookd_accept_line() {
  local _hookd_l=${READLINE_LINE#"${READLINE_LINE%%[![:space:]]*}"} _hookd_q=''
  _hookd_armed=''
  _hookd_enter accept-line
  if [[ $_hookd_l == "$_hookd_prefix" || $_hookd_l == "$_hookd_prefix"[[:space:]]* ]]; then
    _hookd_q=${_hookd_l#"$_hookd_prefix"}
    _hookd_q=${_hookd_q#"${_hookd_q%%[![:space:]]*}"}
    _hookd_q=${_hookd_q%"${_hookd_q##*[![:space:]]}"}
    READLINE_LINE="$_hookd_ask_cmd ask -- '${_hookd_q//\'/\'\\\'\'}'"
    READLINE_POINT=${#READLINE_LINE}
    _hookd_asked=1
    # An offer belongs to the question that made it: one left by an
    # earlier `hookd ask` is emptied (a builtin truncation) before this
    # question can leave its own.
    [[ ! -e $_hookd_fixdir/$HOOKD_SESSION.next ]] || : 2>/dev/null >|"$_hookd_fixdir/$HOOKD_SESSION.next"
    # The keys after accept-line are read by the next prompt's line
    # editor: there, the first command of the answer goes on the line.
    local _hookd_km
    for _hookd_km in $_hookd_maps; do
      builtin bind -m "$_hookd_km" -x '"\C-x\C-h3": _hookd_offer_line'
    done
  elif [[ $_hookd_l =~ ^\!(\!|-[0-9]+|[0-9]+)ctx[[:space:]]*$ ]]; then
    _hookd_q=${BASH_REMATCH[1]}
    [[ $_hookd_q != '!' ]] || _hookd_q=-1
    READLINE_LINE="$_hookd_ask_cmd ask --pin $_hookd_q"
    READLINE_POINT=${#READLINE_LINE}
  fi
}

# _hookd_offer_line runs at the start of the line editor after a question:
# the first command of the answer goes on the line, to edit, or run with
# Enter — unless keys were typed ahead meanwhile (they would be appended to
# it): then it waits for the fix key, as the other commands of the answer.
_hookd_offer_line() {
  local _hookd_km
  for _hookd_km in $_hookd_maps; do
    builtin bind -m "$_hookd_km" '"\C-x\C-h3": ""'
  done
  [[ -n $_hookd_asked ]] || return 0
  _hookd_asked=''
  local _hookd_c='' _hookd_f=$_hookd_fixdir/$HOOKD_SESSION.next
  [[ -s $_hookd_f ]] || return 0
  if builtin read -r -t 0; then
    : >|"$_hookd_f"
    return 0
  fi
  IFS= builtin read -r -d '' _hookd_c <"$_hookd_f"
  : >|"$_hookd_f"
  READLINE_LINE=$_hookd_c
  READLINE_POINT=${#READLINE_LINE}
  # A key typed first replaces it (_hookd_offer_key).
  _hookd_offered=$_hookd_c _hookd_offer_hc=$HISTCMD
  _hookd_offer_keys -x
}

# The printable ASCII characters, in order: _hookd_offer_key's argument
# is an index in it.
_hookd_pr=' !"#$%&'"'"'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwxyz{|}~'

# _hookd_offer_keys -x binds the printable keys that insert themselves
# (self-insert: another binding, magic-space say, is left alone) to
# _hookd_offer_key while an answer's command waits on the line;
# _hookd_offer_keys (no argument) gives them back to self-insert. The
# bindings are read from bind -p without a process, through the session's
# one-shot offer file (0600, just emptied: the offer is on the line), which
# is emptied again.
_hookd_offer_keys() {
  local _hookd_km _hookd_l _hookd_k _hookd_p _hookd_f=$_hookd_fixdir/$HOOKD_SESSION.next
  [[ $1 == -x || ${#_hookd_offer_bound[@]} -gt 0 ]] || return 0
  for _hookd_km in $_hookd_maps; do
    if [[ $1 == -x ]]; then
      builtin bind -m "$_hookd_km" -p 2>/dev/null >|"$_hookd_f" || continue
      while IFS= builtin read -r _hookd_l; do
        [[ $_hookd_l == '"'?'": self-insert' || $_hookd_l == '"'?'": self-insert' ]] || continue
        _hookd_k=${_hookd_l%'": self-insert'}
        _hookd_k=${_hookd_k#'"'}
        _hookd_p=${_hookd_pr%%"${_hookd_k: -1}"*}
        builtin bind -m "$_hookd_km" -x "\"$_hookd_k\": _hookd_offer_key ${#_hookd_p}"
        _hookd_offer_bound+=("$_hookd_km:$_hookd_k")
      done <"$_hookd_f"
      : >|"$_hookd_f"
    fi
  done
  [[ $1 != -x ]] || return 0
  for _hookd_l in "${_hookd_offer_bound[@]}"; do
    builtin bind -m "${_hookd_l%%:*}" "\"${_hookd_l#*:}\": self-insert"
  done
  _hookd_offer_bound=()
}

# _hookd_offer_key N types the printable character N of _hookd_pr, the
# first key after an answer's command was put on the line: typed at the
# end of the untouched command, it replaces it (`./build.sh` then `clear`
# is not `./build.shclear`); anywhere else it is inserted. The keys are
# then self-insert again.
_hookd_offer_key() {
  local _hookd_ch=${_hookd_pr:$1:1}
  if [[ -n $_hookd_offered && $READLINE_LINE == "$_hookd_offered" && $HISTCMD == "$_hookd_offer_hc" ]] &&
    ((READLINE_POINT == ${#READLINE_LINE})); then
    READLINE_LINE=$_hookd_ch
    READLINE_POINT=1
  else
    READLINE_LINE=${READLINE_LINE:0:READLINE_POINT}$_hookd_ch${READLINE_LINE:READLINE_POINT}
    ((READLINE_POINT += 1))
  fi
  _hookd_offered=''
  _hookd_offer_keys
}

# _hookd_risk_of CMD sets _hookd_rl and _hookd_rw (the caller's) to the
# risk level of an offered command and why it is offered, from the
# offer's risk file (package offer's RiskPath), found by the command
# itself: high when it is not there.
_hookd_risk_of() {
  local _hookd_l _hookd_w _hookd_c
  _hookd_rl=high _hookd_rw=''
  while IFS= builtin read -r -d '' _hookd_l && IFS= builtin read -r -d '' _hookd_w &&
    IFS= builtin read -r -d '' _hookd_c; do
    if [[ $_hookd_c == "$1" ]]; then
      _hookd_rl=$_hookd_l _hookd_rw=$_hookd_w
      break
    fi
  done 2>/dev/null <"$_hookd_fixes.risk"
  return 0
}

# _hookd_first_safe sets _hookd_k (the caller's) to the index in _hookd_all
# (the caller's fixes) of the first fix that is not high risk, -1 when
# every one is.
_hookd_first_safe() {
  local _hookd_i _hookd_rl _hookd_rw
  _hookd_k=-1
  for ((_hookd_i = 0; _hookd_i < ${#_hookd_all[@]}; _hookd_i++)); do
    _hookd_risk_of "${_hookd_all[_hookd_i]}"
    if [[ $_hookd_rl != high ]]; then
      _hookd_k=$_hookd_i
      return 0
    fi
  done
  return 0
}

# _hookd_own STATUS: the fix command ran no command (none on offer, a
# usage error, an answer other than yes, fix --ai): its line is hookd's
# own, not the user's command, so it is not recorded (nor a failure to
# fix, in stats or "it worked before"), and the fixes on offer stay those
# of the last failed command. Under capture, the mark that says so ends
# its output. Returns STATUS.
_hookd_own() {
  [[ -z $_hookd_nonce || -z $_hookd_t0 ]] ||
    builtin printf '\e]6973;hookd;%s;X;%s;%s\a\e]133;D;%s\a' "$_hookd_nonce" "$HOOKD_SESSION" "$((_hookd_seq + 1))" "$1"
  _hookd_t0=''
  return "$1"
}

# _hookd_fix runs fix N (1 to 3) of the last failed command, after showing it
# exactly and asking, with its risk: y for a low or medium one, the word
# yes for a high one; it then goes into the history as itself. fix with no
# number is the first fix that is not high risk (none: it says so, and
# runs nothing). fix --ai asks the LLM too.
_hookd_fix() {
  local _hookd_n=${1-} _hookd_c='' _hookd_k=-1 _hookd_a='' _hookd_rl='' _hookd_rw=''
  local -a _hookd_all=()
  # fix --ai asks the LLM about the last failure too; its fixes (merged
  # with the rules') are then the ones fix N runs.
  if [[ $_hookd_n == --ai ]]; then
    command "$_hookd_bin" suggest --ai --failed
    _hookd_own $?
    return
  fi
  if [[ -n $_hookd_n && $_hookd_n != [123] ]]; then
    builtin printf 'usage: fix [1|2|3] | fix --ai\n' >&2
    _hookd_own 2
    return
  fi
  while IFS= builtin read -r -d '' _hookd_c; do
    _hookd_all+=("$_hookd_c")
  done 2>/dev/null <"$_hookd_fixes"
  if [[ -z $_hookd_n ]]; then
    _hookd_first_safe
    ((_hookd_k < 0)) || _hookd_n=$((_hookd_k + 1))
    if [[ -z $_hookd_n && ${#_hookd_all[@]} -gt 0 ]]; then
      builtin printf 'hookd: every fix of the last command is high risk: %s N runs fix N (1 to %s) once you type yes\n' \
        "$_hookd_fixcmd" "${#_hookd_all[@]}" >&2
      _hookd_own 1
      return
    fi
    _hookd_n=${_hookd_n:-1}
  fi
  _hookd_c=${_hookd_all[_hookd_n - 1]-}
  if [[ -z $_hookd_c ]]; then
    if ((${#_hookd_all[@]} == 0)); then
      builtin printf 'hookd: no fix on offer: no command has failed yet, or hookd has none for the last failure\n' >&2
    else
      builtin printf 'hookd: no fix %s: the last failed command has %s\n' "$_hookd_n" "${#_hookd_all[@]}" >&2
    fi
    _hookd_own 1
    return
  fi
  # Shown exactly; quoted when it holds control characters or anything
  # beyond ASCII (bidirectional and invisible characters among them),
  # which must not reach the terminal raw.
  if [[ $_hookd_c == *[[:cntrl:]]* || $_hookd_c == *[![:ascii:]]* ]]; then
    builtin printf '%q\n' "$_hookd_c"
  else
    builtin printf '%s\n' "$_hookd_c"
  fi
  # A fix that holds a secret hookd redacted cannot run as it is: it is to
  # be completed on the command line.
  if [[ $_hookd_c == *'[REDACTED]'* ]]; then
    builtin printf 'hookd: a secret was redacted from it: not run. %s puts it on the command line, to put the secret back in place of [REDACTED]\n' \
      "${_hookd_fixkey:-the fix key}" >&2
    _hookd_own 1
    return
  fi
  _hookd_risk_of "$_hookd_c"
  if [[ $_hookd_rl == high ]]; then
    builtin read -r -p "run it (high risk${_hookd_rw:+: $_hookd_rw})? type yes, then Enter: " _hookd_a || { _hookd_own 1; return; }
    [[ $_hookd_a == yes ]] || { _hookd_own 1; return; }
  else
    builtin read -r -p "run it ($_hookd_rl risk)? [y/N, then Enter] " _hookd_a || { _hookd_own 1; return; }
    [[ $_hookd_a == [yY]* ]] || { _hookd_own 1; return; }
  fi
  builtin history -s -- "$_hookd_c"
  # The fix is recorded as itself, timed from here: the wait for the
  # answer is not part of its duration, nor are the question and the
  # answer part of its output (under capture, its output starts again
  # here: the scanner drops what the same row had so far).
  _hookd_t0=${EPOCHREALTIME:-$((_hookd_epoch0 + SECONDS)).0}
  [[ -z $_hookd_nonce ]] ||
    builtin printf '\e]6973;hookd;%s;C;%s;%s\a' "$_hookd_nonce" "$HOOKD_SESSION" "$((_hookd_seq + 1))"
  builtin eval -- "$_hookd_c"
}

# _hookd_fix_key (bound to Ctrl-X f) puts the first fix that is not high
# risk on the command line, to edit or run with Enter; pressed again, the
# next one (a high-risk one is named so). When every fix is high risk, it
# puts none there by itself: fix N shows one.
_hookd_fix_key() {
  local _hookd_c='' _hookd_i=0 _hookd_n=-1 _hookd_k=-1 _hookd_rl='' _hookd_rw=''
  local -a _hookd_all=()
  while IFS= builtin read -r -d '' _hookd_c; do
    _hookd_all+=("$_hookd_c")
  done 2>/dev/null <"$_hookd_fixes"
  ((${#_hookd_all[@]} > 0)) || return 0
  for ((_hookd_i = 0; _hookd_i < ${#_hookd_all[@]}; _hookd_i++)); do
    if [[ $READLINE_LINE == "${_hookd_all[_hookd_i]}" ]]; then
      _hookd_n=$(((_hookd_i + 1) % ${#_hookd_all[@]}))
      break
    fi
  done
  if ((_hookd_n < 0)); then
    _hookd_first_safe
    _hookd_n=$_hookd_k
    if ((_hookd_n < 0)); then
      builtin printf 'hookd: every fix of the last command is high risk: %s N shows fix N\n' "$_hookd_fixcmd" >&2
      return 0
    fi
  fi
  _hookd_risk_of "${_hookd_all[_hookd_n]}"
  [[ $_hookd_rl != high ]] || builtin printf 'hookd: high risk%s\n' "${_hookd_rw:+: $_hookd_rw}" >&2
  READLINE_LINE=${_hookd_all[_hookd_n]}
  READLINE_POINT=${#READLINE_LINE}
}

# _hookd_ai_key (bound to Ctrl-X l) asks the LLM about the last failed
# command, as fix --ai does: the analysis is printed above the prompt, and
# its fixes are then the ones the fix key and fix N offer.
_hookd_ai_key() {
  if [[ ! -x $_hookd_bin ]]; then
    builtin printf 'hookd: %s is missing\n' "$_hookd_bin" >&2
    return 0
  fi
  command "$_hookd_bin" suggest --ai --failed </dev/null
}

# _hookd_search (the search key) runs hookd search on the terminal, with
# the command line as the query: the command chosen goes on the line,
# exactly, ready to run or to edit; after Esc the line stays as it was.
# When the search chose to run it, \C-x\C-h7 (read next) is accept-line.
_hookd_search() {
  local _hookd_o _hookd_a _hookd_km
  for _hookd_km in $_hookd_search_maps; do
    builtin bind -m "$_hookd_km" '"\C-x\C-h7": ""'
  done
  [[ -x $_hookd_bin ]] || return 0
  # bash clears the prompt's line while a bind -x command runs: the search
  # draws it there again (the prompt's last line, as readline shows it).
  _hookd_o=${PS1-}
  _hookd_o=${_hookd_o@P}
  _hookd_o=$(command "$_hookd_bin" search --widget bash --prompt-line="${_hookd_o##*$'\n'}$READLINE_LINE" --query="$READLINE_LINE") || return 0
  _hookd_o=${_hookd_o%.}
  _hookd_a=${_hookd_o%%$'\n'*}
  case $_hookd_a in
    accept | edit | run) ;;
    *) return 0 ;;
  esac
  READLINE_LINE=${_hookd_o#*$'\n'}
  READLINE_POINT=${#READLINE_LINE}
  if [[ $_hookd_a == run ]]; then
    for _hookd_km in $_hookd_search_maps; do
      builtin bind -m "$_hookd_km" '"\C-x\C-h7": accept-line'
    done
  fi
}

# _hookd_complete completes the words of a hookd command line (or a
# question after the ask prefix, as hookd ask): hookd itself says what fits
# (subcommands, flags, prompt-file names), or that file names do.
_hookd_complete() {
  local _hookd_c
  local -a _hookd_w=("${COMP_WORDS[@]:1:COMP_CWORD}")
  [[ ${COMP_WORDS[0]} == "$_hookd_prefix" && -n $_hookd_prefix ]] && _hookd_w=(ask "${_hookd_w[@]}")
  COMPREPLY=()
  while IFS= builtin read -r _hookd_c; do
    if [[ $_hookd_c == :files ]]; then
      COMPREPLY=()
      builtin compopt -o default 2>/dev/null
      return 0
    fi
    COMPREPLY+=("${_hookd_c%%$'\t'*}")
  done < <(command "$_hookd_bin" __complete -- "${_hookd_w[@]}" 2>/dev/null)
}

# _hookd_daemon starts the hookd daemon when it is not running, and notes the
# path that tells, at each prompt without a process, that it still runs:
# /proc/PID/exe, which a process has while it runs and loses when it dies,
# even before its parent reaps it (a zombie, dead but not reaped, keeps
# /proc/PID: in a container whose PID 1 never reaps, for ever). Where
# there is no /proc, "/", which always exists, so that only a new shell
# checks (with kill -0). The daemon starts in the background: neither the
# prompt nor the first command waits for it (a subshell starts it, so that
# your $! stays yours). It is quiet when the binary is missing, and tries at
# most once a second: the records wait in the spool meanwhile.
_hookd_daemon() {
  local _hookd_pid=
  _hookd_alive=
  { builtin read -r _hookd_pid _ <"$_hookd_pidfile"; } 2>/dev/null
  if [[ -z $_hookd_pid ]]; then
    :
  elif [[ -e /proc/$$/exe ]]; then
    [[ ! -e /proc/$_hookd_pid/exe ]] || _hookd_alive=/proc/$_hookd_pid/exe
  elif builtin kill -0 "$_hookd_pid" 2>/dev/null; then
    _hookd_alive=/
  fi
  if [[ -z $_hookd_alive ]] && ((SECONDS != _hookd_tried)) && [[ -x $_hookd_bin ]]; then
    _hookd_tried=$SECONDS
    (command "$_hookd_bin" daemon --detach </dev/null >/dev/null 2>&1 &)
  fi
  return 0
}

# _hookd_start runs the start-up, then takes every start-up function
# away (itself too), so that nothing of it is left for the prompt's path.
_hookd_start() {
  _hookd_init
  builtin unset -f _hookd_init _hookd_init_capture _hookd_proxy _hookd_init_session _hookd_query \
    _hookd_init_env _hookd_init_hooks _hookd_init_ask _hookd_init_fix _hookd_key_map _hookd_init_search _hookd_init_complete \
    _hookd_init_daemon _hookd_start
  [[ -z ${_hookd_early_fn-} ]] || builtin unset -f hookd
  builtin unset _hookd_early _hookd_early_fn _hookd_early_capture _hookd_umask
}

# The early line (`eval "$(hookd init bash --early)"`, the rc file's first
# line), where it does not re-execute the shell under the proxy (it is
# there already, or capture is off), prints this file with _hookd_early set
# and without the @run@ line below: everything is defined, nothing runs
# yet. This `hookd` function then answers the usual line at the end of the
# rc file, `eval "$(hookd init bash)"`, without starting a process: that
# line then runs _hookd_start. Any other hookd command (or that line with
# flags, or HOOKD_CAPTURE changed since) goes to the binary; a `hookd`
# function or alias of your own is left alone.
if [[ -n ${_hookd_early-} ]] && ! builtin declare -F hookd >/dev/null && [[ -z ${BASH_ALIASES[hookd]+set} ]]; then
  _hookd_early_fn=1 _hookd_early_capture=${HOOKD_CAPTURE-unset}
  hookd() {
    if [[ $# == 2 && $1 == init && $2 == bash && ${HOOKD_CAPTURE-unset} == "$_hookd_early_capture" ]]; then
      builtin printf '%s\n' _hookd_start
    else
      command hookd "$@"
    fi
  }
fi

# @run@
_hookd_start
