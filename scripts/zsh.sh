# hookd shell integration for zsh (5.3 or newer).
# Load it from ~/.zshrc with two lines, the first and the last:
#   eval "$(hookd init zsh --early)"   # enters the capturing proxy here
#   …
#   eval "$(hookd init zsh)"           # the hooks, keys and completion
# (the last line alone works too; the rc file then runs twice under capture).
#
# On every prompt this code appends one record to a spool file private to this
# shell, using builtins only: no process is started while you work, except
# after a failed command, when `hookd suggest --inline` prints its fixes. The
# hookd daemon moves the records into the history database. `hookd init` fills
# in the lines marked @name@ (the binary, the state directory, the settings)
# and leaves the comment lines out; nothing else is generated.
#
# The file reads as a list of named steps, in the same order as bash.sh, so
# that the two can be read side by side. To add a piece: a start-up step of
# its own (_hookd_init_NAME, called from _hookd_init, taken away in
# _hookd_start), and on the prompt's path no process and no subshell (the
# per-command cost is measured: bench/hook_overhead.sh, docs/benchmarks.md).
#
#   start-up (run once by _hookd_start, then unfunctioned: none of it is
#   left for the prompt's path)
#     _hookd_init            guards, the values hookd init fills in, the steps:
#     _hookd_init_capture      enter the capturing proxy (capture on)
#       _hookd_proxy             re-execute under it (the early line's work)
#     _hookd_init_session      the session: its id, spool, header, XFSZ trap
#       _hookd_query             a builtin's listing, without a subshell
#       _hookd_bindings          what keys are bound to (for the three below)
#     _hookd_init_env          the environment's names (fix.watch_env), first record
#     _hookd_init_hooks        the prompt hooks (preexec, precmd, PROMPT_SP)
#     _hookd_init_ask          the `??` and `!!ctx` keys
#     _hookd_init_fix          the fix command, the fix and AI keys
#     _hookd_init_search       Ctrl-R: hookd search
#     _hookd_init_complete     completion of hookd's command line
#     _hookd_init_daemon       the daemon, started if it is not running
#   the prompt's path
#     _hookd_preexec         notes a command's start (and its output's mark)
#     _hookd_precmd          records the command that just finished
#     _hookd_envrec          the environment's record, when it changed
#     _hookd_first, _hookd_end   the end time first, whatever hooks come
#     _hookd_take_sp, _hookd_prompt_sp   PROMPT_SP under capture
#   the `??` keys
#     _hookd_arm, _hookd_paste, _hookd_arm_enter, _hookd_accept_line,
#     _hookd_rewrite_line, _hookd_offer_line, _hookd_highlight
#   the fixes
#     _hookd_fix (the fix command), _hookd_own, _hookd_fix_key, _hookd_ai_key
#   the search
#     _hookd_search_widget   Ctrl-R: hookd search, its choice on the line
#   completion
#     _hookd_compdef, _hookd_complete
#   the daemon
#     _hookd_daemon          starts the daemon, notes how to tell it runs
#   _hookd_start             runs the start-up; the early line's `hookd`

# _hookd_init checks that this shell can load hookd (interactive, not
# loaded yet, new enough), sets the values hookd init fills in, and runs the
# start-up steps in order.
_hookd_init() {
  emulate -L zsh
  [[ -o interactive ]] || return 0
  (( ${+_hookd_loaded} )) && return 0
  # (Compared here rather than with is-at-least, whose autoloading costs
  # every start more than the rest of this check.)
  if [[ $ZSH_VERSION != (5.<3->|<6->)(|.*) ]]; then
    print -ru2 -- "hookd: zsh $ZSH_VERSION is too old (5.3 or newer is needed); commands are not recorded in this shell"
    return 0
  fi
  zmodload zsh/datetime 2>/dev/null || return 0
  typeset -g _hookd_loaded=1

  typeset -g _hookd_bin=hookd # @bin@
  typeset -g _hookd_capture=off # @capture@
  typeset -g _hookd_fixcmd=fix # @fixcmd@
  typeset -g _hookd_fixkey= # @fixkey@
  typeset -g _hookd_aikey= # @aikey@
  typeset -g _hookd_prefix= # @prefix@
  typeset -g _hookd_searchkey= # @searchkey@
  typeset -g _hookd_searchup= # @searchup@
  typeset -g _hookd_searchreplace= # @searchreplace@
  typeset -g _hookd_watch= # @watch@
  # hookd's files, as package paths lays them out (from the XDG variables
  # as adrg/xdg reads them: "~/" expanded where a shell would not): the
  # shell writes where the daemon reads, and derives none of them itself.
  typeset -g _hookd_state= # @state@
  typeset -g _hookd_spooldir= # @spooldir@
  typeset -g _hookd_fixdir= # @offerdir@
  typeset -g _hookd_pidfile= # @pidfile@

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
# nested shell, `exec zsh`) is already captured and prints the marks that
# cut the output per command. A shell on another terminal (a new tmux pane,
# say) enters a proxy of its own: best at the early line (`eval "$(hookd
# init zsh --early)"`, the rc file's first line), which re-executes the
# shell before the rest of the rc file runs; where the early line ran but
# could not, this shell goes on without capture (`hookd status` says why).
# Without the early line, here: once, after checking that the proxy can
# start, and then the whole rc file runs again in the new shell (`hookd
# status` suggests the early line).
_hookd_init_capture() {
  emulate -L zsh
  typeset -g _hookd_nonce=
  [[ $_hookd_capture == pty ]] || return 0
  if [[ -n ${HOOKD_PTY-} && -n ${HOOKD_CAPTURE_NONCE-} && $TTY -ef $HOOKD_PTY ]]; then
    _hookd_nonce=$HOOKD_CAPTURE_NONCE
    return 0
  fi
  [[ -z ${_hookd_early-} ]] || return 0
  local zsh_path=${${:-/proc/$$/exe}:A}
  [[ -x $zsh_path ]] || zsh_path=${commands[zsh]-}
  if [[ -t 0 && -t 1 && -x $_hookd_bin && -n $zsh_path ]] &&
    command $_hookd_bin shell --check --shell $zsh_path </dev/null >/dev/null 2>&1; then
    _hookd_proxy $_hookd_bin --rc-again
  fi
  return 0
}

# _hookd_proxy BIN [FLAG] re-executes this shell under BIN's `hookd shell`,
# with the same command line (a login shell's "-zsh", options), read
# without a fork; without /proc, as an interactive shell. It is all that
# the early line runs in a terminal that is not captured yet (hookd init
# --early prints this function and a call), so it stands alone.
_hookd_proxy() {
  emulate -L zsh
  [[ -o interactive && -t 0 && -t 1 && -x $1 ]] || return 0
  local zsh_path=${${:-/proc/$$/exe}:A}
  [[ -x $zsh_path ]] || zsh_path=${commands[zsh]-}
  [[ -n $zsh_path ]] || return 0
  local -a zsh_argv
  [[ -r /proc/$$/cmdline ]] && zsh_argv=(${(0)"$(</proc/$$/cmdline)"})
  if (( $#zsh_argv )); then
    exec $1 shell $2 --shell $zsh_path -- $zsh_argv
  elif [[ -o login ]]; then
    exec $1 shell $2 --login --shell $zsh_path
  else
    exec $1 shell $2 --shell $zsh_path
  fi
}

# _hookd_init_session starts this shell's session: its id (HOOKD_SESSION
# is exported for the hookd CLI, but a child shell makes its own), its
# spool file and the header record, and the XFSZ trap. No process is
# started (the spool directory is made by hookd init).
_hookd_init_session() {
  emulate -L zsh
  # Times are EPOCHREALTIME as it is ("seconds.nanos"); the session id
  # starts with the microseconds.
  typeset -g _hookd_t0=$EPOCHREALTIME
  typeset -gx HOOKD_SESSION=${${_hookd_t0//[^0-9]/}[1,16]}-$$-$RANDOM
  typeset -g _hookd_spool=$_hookd_spooldir/$HOOKD_SESSION.spool
  typeset -g _hookd_fixes=$_hookd_fixdir/$HOOKD_SESSION
  typeset -gi _hookd_seq=0
  typeset -g _hookd_run= _hookd_ran= _hookd_cmd= _hookd_cwd=$PWD _hookd_s=0 _hookd_ps= _hookd_alive=
  typeset -gi _hookd_tried=-1
  # The user's umask, read without a process (Linux has it in
  # /proc/PID/status), so that hookd's files are made 0600 and the umask
  # put back; where it cannot be read, a subshell keeps umask 077 to itself.
  typeset -g _hookd_umask=
  local k v
  while IFS=$': \t' read -r k v; do
    [[ $k != Umask ]] || { _hookd_umask=$v; break }
  done 2>/dev/null </proc/$$/status

  # Under `ulimit -f`, a spool write past the limit would kill the shell
  # with SIGXFSZ. A trap that does nothing makes the write fail instead;
  # unlike ignoring the signal, it is not passed on to the commands you run.
  # A trap of your own is left alone.
  _hookd_query trap
  if [[ $REPLY != *XFSZ* ]]; then
    unsetopt local_traps # set inside this function, the trap must outlive it
    trap ':' XFSZ
  fi

  [[ -d $_hookd_spooldir ]] || command mkdir -p -m 700 -- $_hookd_state $_hookd_spooldir 2>/dev/null
  # The session header.
  if [[ -n $_hookd_umask ]]; then
    umask 077
    print -rN -- $'\nS2' zsh "$ZSH_VERSION" "$$" "${HOST-}" "${USER-}" "${UID-}" "$_hookd_t0" \
      "${${_hookd_nonce:+pty}:-off}" 2>/dev/null >>$_hookd_spool
    umask $_hookd_umask
  else
    (
      trap '' XFSZ
      umask 077
      print -rN -- $'\nS2' zsh "$ZSH_VERSION" "$$" "${HOST-}" "${USER-}" "${UID-}" "$_hookd_t0" \
        "${${_hookd_nonce:+pty}:-off}" 2>/dev/null >>$_hookd_spool
    ) 2>/dev/null
  fi

  return 0
}

# _hookd_query CODE runs CODE (builtins that list something: the traps, key
# bindings) and sets REPLY to what it printed, without the subshell of
# $(…): through this session's offer file, made 0600 and left empty (no
# fix is offered yet). Where the umask is unknown, $(…) it is. Start-up only.
_hookd_query() {
  emulate -L zsh
  typeset -g REPLY=
  if [[ -n $_hookd_umask && -w $_hookd_fixdir ]]; then
    umask 077
    eval "$1" 2>/dev/null >|$_hookd_fixes
    umask $_hookd_umask
    IFS= read -r -d '' REPLY 2>/dev/null <$_hookd_fixes
    : 2>/dev/null >|$_hookd_fixes
  else
    REPLY=$(eval "$1" 2>/dev/null)
  fi
  return 0
}

# _hookd_bindings KEY… sets reply (the caller's local: a global one left
# behind would make every function call at the prompt cost more, as zsh
# scans all parameters when a function returns) to what each KEY is bound
# to in the emacs and viins keymaps, in that order (KEY1's two, then
# KEY2's…): bindkey's line ("^Xf" undefined-key), or '' for an empty KEY.
# Asked once, without a process (_hookd_query); the callers decide what
# counts as free. Start-up only.
_hookd_bindings() {
  emulate -L zsh
  local -a keys=("$@")
  _hookd_query 'local key km
  for key in "${keys[@]}"; do
    for km in emacs viins; do
      [[ -n $key ]] && bindkey -M $km -- $key 2>/dev/null || print
    done
  done'
  reply=("${(@f)REPLY}")
}

# _hookd_init_env: the environment a command runs in, noted as a record
# in the spool at start-up and then whenever it changes (_hookd_envrec,
# checked by one comparison at each prompt): PATH and the variables of the
# environment managers, and fix.watch_env's (_hookd_watch: hookd init lets
# only variable names through). The watched names are spliced into the
# checks of _hookd_precmd and _hookd_envrec (a builtin assignment to
# $functions, no process); _hookd_envx expands to all the values.
_hookd_init_env() {
  emulate -L zsh
  typeset -ga _hookd_envn=(PATH VIRTUAL_ENV CONDA_PREFIX NODE_ENV KUBECONFIG AWS_PROFILE DOCKER_CONTEXT GOFLAGS ${=_hookd_watch})
  typeset -g _hookd_envx= _hookd_env= _hookd_envnl=${(j: :)_hookd_envn}
  local n w=
  # A \x1f in a value is written as U+241F (␟): it ends no value.
  for n in $_hookd_envn; do _hookd_envx+='${'$n'//'$'\x1f''/'$'\xe2\x90\x9f''}'$'\x1f'; done
  if [[ -n $_hookd_watch ]]; then
    for n in ${=_hookd_watch}; do w+=':${'$n'-}'; done
    for n in _hookd_precmd _hookd_envrec; do
      functions[$n]=${functions[$n]//'${GOFLAGS-}'/'${GOFLAGS-}'$w}
    done
  fi
  _hookd_envrec 1
  return 0
}

# _hookd_init_hooks puts the prompt hooks in place: _hookd_preexec runs
# last, _hookd_precmd first.
_hookd_init_hooks() {
  emulate -L zsh
  # zsh prints PROMPT_SP's end-of-line mark and padding before the precmd
  # hooks, that is, before the mark that ends the output, where it would be
  # kept as part of the output. Under capture, hookd prints it itself,
  # right after that mark (see _hookd_sp).
  typeset -g _hookd_sp=
  [[ -n $_hookd_nonce ]] && precmd_functions+=(_hookd_take_sp)

  # preexec runs last (the mark that starts the output follows anything
  # other hooks print), precmd first (it sees the command's status, and the
  # mark that ends the output comes before anything other hooks print).
  preexec_functions=(${preexec_functions:#_hookd_preexec} _hookd_preexec)
  typeset -g _hookd_t1=
  _hookd_first
  return 0
}

# _hookd_init_ask: `?? QUESTION` and `!!ctx` at the prompt (ask.prefix; ''
# turns them off): the line is rewritten in the line editor, before the
# shell reads it, so that neither history expansion nor globbing sees it.
# Enter keeps its widget until the first character of the prefix or a `!`
# is typed (_hookd_arm): only then does accept-line become
# _hookd_accept_line, which rewrites the line and chains to whatever
# accept-line was (another plugin's wrapper), so that an ordinary command
# line costs nothing more.
_hookd_init_ask() {
  emulate -L zsh
  typeset -g _hookd_asked= _hookd_prev_accept= _hookd_ask_cmd=hookd _hookd_armed= _hookd_offered=
  [[ -n $_hookd_prefix ]] || return 0
  [[ ${commands[hookd]-} -ef $_hookd_bin ]] || _hookd_ask_cmd=${(qq)_hookd_bin}
  autoload -Uz add-zle-hook-widget
  zle -N _hookd_arm
  typeset -g _hookd_prev_paste=
  case ${widgets[bracketed-paste]-} in
    user:_hookd_paste) ;;
    user:*) _hookd_prev_paste=${widgets[bracketed-paste]#user:} ;;
  esac
  zle -N bracketed-paste _hookd_paste
  # Only where the key is self-insert.
  local km key
  local -a reply
  _hookd_bindings ${_hookd_prefix[1]} '!'
  local -a bound=("${(@)reply}")
  local -i i=0
  for key in ${_hookd_prefix[1]} '!'; do
    for km in emacs viins; do
      (( ++i ))
      [[ ${bound[i]-} == *' self-insert' ]] && bindkey -M $km -- $key _hookd_arm
    done
  done
  return 0
}

# _hookd_init_fix defines `fix` (or the name the config gives), unless that
# name is taken (an alias, a function, a command; hookd init lets only a
# plain word through), and binds Ctrl-X f (fix.key), which puts the next
# fix on the command line, and Ctrl-X l (fix.ai_key), which asks the LLM
# about the last failure: in the emacs and vi insert keymaps, where the key
# is free.
_hookd_init_fix() {
  emulate -L zsh
  if [[ -n $_hookd_fixcmd ]] &&
    ! (( $+aliases[$_hookd_fixcmd] || $+functions[$_hookd_fixcmd] || $+commands[$_hookd_fixcmd] )); then
    functions[$_hookd_fixcmd]='_hookd_fix "$@"'
  fi
  # Where the key is free.
  [[ -n $_hookd_fixkey$_hookd_aikey ]] || return 0
  local km key widget
  local -a reply
  _hookd_bindings "$_hookd_fixkey" "$_hookd_aikey"
  local -a bound=("${(@)reply}")
  local -i i=0
  for key widget in "$_hookd_fixkey" _hookd_fix_key "$_hookd_aikey" _hookd_ai_key; do
    for km in emacs viins; do
      (( ++i ))
      [[ -n $key ]] || continue
      zle -N $widget
      [[ ${bound[i]-} == *undefined-key ]] && bindkey -M $km -- $key $widget
    done
  done
  return 0
}

# _hookd_init_search binds Ctrl-R (search.key), and search.up_key (none
# unless set), to hookd search, which searches every command and what it
# printed: in the emacs and vi insert keymaps, where the key is free or
# holds zsh's own history search, and not where another widget holds it
# (fzf's, atuin's) unless search.replace says so. The bindings are asked
# without a process (_hookd_query): a line each.
_hookd_init_search() {
  emulate -L zsh
  [[ -n $_hookd_searchkey$_hookd_searchup ]] || return 0
  local km key
  local -a reply
  _hookd_bindings "$_hookd_searchkey" "$_hookd_searchup"
  local -a bound=("${(@)reply}")
  local -i i=0
  for key in "$_hookd_searchkey" "$_hookd_searchup"; do
    for km in emacs viins; do
      (( ++i ))
      [[ -n $key ]] || continue
      if [[ -z $_hookd_searchreplace ]]; then
        case ${bound[i]##* } in
          undefined-key | redisplay | history-incremental-search-backward | \
            history-incremental-pattern-search-backward | up-line-or-history | up-history | \
            up-line-or-beginning-search | history-search-backward | _hookd_search_widget) ;;
          *) continue ;;
        esac
      fi
      zle -N _hookd_search_widget
      bindkey -M $km -- $key _hookd_search_widget
    done
  done
  return 0
}

# _hookd_init_complete: completion of hookd's command line, and of a
# question after the ask prefix (?? /review<Tab>), once compinit has run:
# now, or else by the first prompt (an rc file often runs it after this).
_hookd_init_complete() {
  emulate -L zsh
  _hookd_compdef || precmd_functions+=(_hookd_compdef)
  return 0
}

# _hookd_init_daemon starts the daemon if it is not running.
_hookd_init_daemon() {
  emulate -L zsh
  _hookd_daemon
}

# _hookd_preexec notes the command line as typed and its start. $1 is empty
# when the history mechanism is off; a line with a leading space is kept out
# whatever HIST_IGNORE_SPACE says.
_hookd_preexec() {
  emulate -L zsh
  _hookd_run= _hookd_ran=1
  if [[ -n $1 && $1 != [[:space:]]* ]]; then
    _hookd_cmd=$1
    _hookd_t0=$EPOCHREALTIME
    _hookd_run=1
  fi
  # Under capture, the marks that start the output: OSC 133;C for the
  # terminal, then hookd's private mark naming the history row the output
  # belongs to (none for a command that is not recorded).
  if [[ -n $_hookd_nonce ]]; then
    if [[ -n $_hookd_run ]]; then
      print -rn -- $'\e]133;C\a\e]6973;hookd;'$_hookd_nonce';C;'$HOOKD_SESSION';'$((_hookd_seq + 1))$'\a'
    else
      print -rn -- $'\e]133;C\a'
    fi
    # direnv's hook runs from chpwd_functions, inside the command's output:
    # swap in the wrapper that keeps its status lines out of the capture
    # (once: a second `direnv hook zsh` adds a hook the wrapper runs).
    if (( ${chpwd_functions[(Ie)_direnv_hook]} )); then
      if (( ${chpwd_functions[(Ie)_hookd_hushed_direnv]} )); then
        chpwd_functions=(${chpwd_functions:#_direnv_hook})
      else
        chpwd_functions=(${chpwd_functions/#%_direnv_hook/_hookd_hushed_direnv})
      fi
    fi
  fi
  return 0
}

# _hookd_hushed_direnv runs direnv's hook (in chpwd_functions in its place,
# under capture) between the marks that pause and resume the capture, so
# that "direnv: loading …" is not stored as the output of the `cd`, as in
# bash, where it runs from PROMPT_COMMAND after the command's end. The
# marks go to stderr, where direnv prints, and only when it is the
# terminal. A chpwd function of the user's own is not wrapped: what it
# prints is the `cd`'s output.
_hookd_hushed_direnv() {
  local s=$? t=
  [[ -n $_hookd_nonce && -t 2 ]] && t=1
  [[ -n $t ]] && print -rnu2 -- $'\e]6973;hookd;'$_hookd_nonce$';P\a'
  (( $+functions[_direnv_hook] )) && _direnv_hook "$@"
  [[ -n $t ]] && print -rnu2 -- $'\e]6973;hookd;'$_hookd_nonce$';R\a'
  return s
}

# _hookd_precmd writes the record of the command that just finished. zsh
# restores $? and $pipestatus for the next hook and for the prompt. It is on
# every prompt's path: builtins only, no pattern substitution, no `local`.
_hookd_precmd() {
  _hookd_s=$? _hookd_ps="${pipestatus[*]}"
  emulate -L zsh
  # Under capture, the marks (and PROMPT_SP's padding) go out in one write
  # with the prompt's mark, unless fixes come in between.
  local REPLY= m=
  # The environment the command ran in, when it changed (the next
  # command's, when it was not recorded): PATH by its length (see
  # _hookd_envrec).
  [[ ${#PATH}:${VIRTUAL_ENV-}:${CONDA_PREFIX-}:${NODE_ENV-}:${KUBECONFIG-}:${AWS_PROFILE-}:${DOCKER_CONTEXT-}:${GOFLAGS-} == "$_hookd_env" ]] ||
    _hookd_envrec $((_hookd_seq + 1))
  if [[ -n $_hookd_run ]]; then
    _hookd_run=
    _hookd_seq+=1
    # A NUL typed into the line (Ctrl-V Ctrl-@) would split the text field:
    # the reader then keeps the part before it.
    # The braces take stderr first: zsh reports a failing redirection (the
    # spool directory removed) on the shell's own stderr otherwise.
    {
      print -rN -- $'\nC1' "$_hookd_seq $_hookd_t0 ${_hookd_t1:-$EPOCHREALTIME} $_hookd_s $_hookd_ps" \
        "$_hookd_cwd" r "$_hookd_cmd" >>$_hookd_spool
    } 2>/dev/null
    # The record is written: now the mark that ends the output (the proxy
    # then stores it under this row).
    if [[ -n $_hookd_nonce ]]; then
      m=$'\e]6973;hookd;'$_hookd_nonce';D;'$HOOKD_SESSION';'$_hookd_seq';'$_hookd_s$'\a\e]133;D;'$_hookd_s$'\a'
      [[ -z $_hookd_sp ]] || { _hookd_prompt_sp; m+=$REPLY }
    fi
    _hookd_ran=
    # Only a failure starts a process: up to three fixes, before the
    # prompt. (Interrupted commands get none.)
    if (( _hookd_s != 0 && _hookd_s != 130 )) && [[ -x $_hookd_bin ]]; then
      print -rn -- "$m"
      m=
      # Alias and function names go along, for the typo rules.
      command $_hookd_bin suggest --inline --seq $_hookd_seq --width ${COLUMNS:-80} ${_hookd_nonce:+--captured} \
        --names 2>/dev/null <<<"${(k)aliases} ${(k)functions}"
    fi
    _hookd_cmd=
  fi
  if [[ -n $_hookd_nonce ]]; then
    if [[ -n $_hookd_ran ]]; then
      m=$'\e]133;D;'$_hookd_s$'\a'
      [[ -z $_hookd_sp ]] || { _hookd_prompt_sp; m+=$REPLY }
    fi
    print -rn -- "$m"$'\e]133;A\a'
  fi
  _hookd_ran= _hookd_t1=
  _hookd_cwd=$PWD
  # A dead daemon is started again by the next prompt (its /proc/PID/exe is
  # gone): raw command lines and outputs do not wait for a new shell.
  [[ -e $_hookd_alive ]] || _hookd_daemon
  # hookd's precmd stays the first prompt code, whatever was added since.
  [[ $precmd_functions[1] == _hookd_precmd && ${functions[precmd]-${_hookd_pcwrap-}} == "${_hookd_pcwrap-}" ]] || _hookd_first
  return $_hookd_s
}

# _hookd_envrec writes the environment's record when it changed since
# the last one: the commands from sequence number $1 on ran in it. Its
# names, then their values, each ended by \x1f: PATH whole, though
# _hookd_precmd and this check only its length, which costs less on every
# prompt than comparing it.
_hookd_envrec() {
  emulate -L zsh
  local x=${#PATH}:${VIRTUAL_ENV-}:${CONDA_PREFIX-}:${NODE_ENV-}:${KUBECONFIG-}:${AWS_PROFILE-}:${DOCKER_CONTEXT-}:${GOFLAGS-}
  [[ $x != "$_hookd_env" ]] || return 0
  _hookd_env=$x
  { print -rN -- $'\nE1' $1 "$_hookd_envnl" "${(e)_hookd_envx}" >>$_hookd_spool } 2>/dev/null
}

# _hookd_first keeps a command's end time the first thing taken after it:
# zsh runs a precmd() function before precmd_functions, so a precmd() of
# the user's (`precmd() { vcs_info }`, defined before hookd's line or
# after it) is wrapped in one of hookd's that notes the time first, and
# _hookd_precmd goes back to the front of precmd_functions when a hook was
# put before it. It runs at start-up and at each prompt where the check in
# _hookd_precmd finds something to do (once, after each such change; at
# the first prompt, before any command, for what the rc file did after
# hookd's line).
_hookd_first() {
  emulate -L zsh
  [[ $precmd_functions[1] == _hookd_precmd ]] || precmd_functions=(_hookd_precmd ${precmd_functions:#_hookd_precmd})
  (( $+functions[precmd] )) && [[ $functions[precmd] != "${_hookd_pcwrap-}" ]] || return 0
  # An autoloaded precmd is loaded first, so that its body is copied.
  [[ $functions[precmd] != *'autoload -X'* ]] || autoload +X precmd 2>/dev/null
  functions[_hookd_user_precmd]=$functions[precmd]
  functions[precmd]='_hookd_end; _hookd_user_precmd "$@"'
  typeset -g _hookd_pcwrap=$functions[precmd]
}

# _hookd_end (in hookd's precmd()) notes the end time before the user's
# precmd() runs; _hookd_precmd records it. $? is kept for the user's
# function. (Written for any options, without emulate -L: it runs at every
# prompt.)
_hookd_end() {
  local s=$?
  typeset -g _hookd_t1=$EPOCHREALTIME
  return s
}

# _hookd_take_sp turns PROMPT_SP off and lets _hookd_prompt_sp do its work
# after the end-of-output mark (`setopt` then shows prompt_sp off). It runs
# once at load and then as a precmd hook of its own, in case an rc file
# sets PROMPT_SP again after hookd's line: it changes an option for the
# whole shell, so it runs without `emulate -L`, which would undo that (and
# is written for any options: _hookd_sp is a global already).
_hookd_take_sp() {
  [[ -o prompt_sp && -o prompt_cr ]] || return 0
  builtin unsetopt prompt_sp
  _hookd_sp=1
}

# _hookd_prompt_sp sets REPLY to what zsh's PROMPT_SP prints: the
# end-of-line mark and padding to the terminal's width, so that output
# without a final newline keeps its line (the mark shows it) and the prompt
# starts on a fresh one.
_hookd_prompt_sp() {
  emulate -L zsh
  setopt extended_glob
  local mark=${PROMPT_EOL_MARK-%B%S%#%s%b}
  # Its width: the expansion without the attribute escapes.
  local bare=${${mark//\%[BbSsUu]/}//\%[FfKk](\{[^\}]#\}|)/}
  local -i w=${(m)#${(%)bare}}
  REPLY="${(%)mark}${(l:COLUMNS - w:: :)}"$'\r'"${(l:w:: :)}"$'\r'
}

# _hookd_arm (bound to the prefix's first character and `!`) inserts the
# key, and makes Enter rewrite the line (_hookd_accept_line) until it is
# accepted. It, _hookd_paste, _hookd_accept_line and _hookd_highlight call
# widgets and functions that may be the user's (self-insert wrapped by a
# plugin, their accept-line), which must run under the user's options: so
# these four run without emulate -L and are written for any options.
_hookd_arm() {
  zle self-insert
  _hookd_arm_enter
}

# _hookd_paste is bracketed-paste (what was bound to it, chained): pasted
# text does not go through the keys, so a paste arms Enter too.
_hookd_paste() {
  if [[ -n $_hookd_prev_paste ]]; then
    $_hookd_prev_paste "$@"
  else
    zle .bracketed-paste
  fi
  _hookd_arm_enter
}

# _hookd_arm_enter makes accept-line _hookd_accept_line until the line is
# accepted.
_hookd_arm_enter() {
  emulate -L zsh
  [[ -z $_hookd_armed ]] || return 0
  _hookd_armed=1
  case ${widgets[accept-line]-} in
    user:_hookd_accept_line) return 0 ;;
    user:*) _hookd_prev_accept=${widgets[accept-line]#user:} ;;
    *) _hookd_prev_accept= ;;
  esac
  zle -N accept-line _hookd_accept_line
}

# _hookd_accept_line is accept-line (Enter): it rewrites a `?? QUESTION`
# line into `hookd ask -- 'QUESTION'` (quoted: nothing in it is expanded or
# run, and the line re-asks the same question when recalled), and a line
# that is a mention alone (!!ctx, !-2ctx, !42ctx) into `hookd ask --pin
# REF`, then accepts the line as accept-line would.
_hookd_accept_line() {
  _hookd_rewrite_line
  # accept-line is what it was again, until the next arming.
  if [[ -n $_hookd_prev_accept ]]; then
    zle -N accept-line $_hookd_prev_accept
    $_hookd_prev_accept "$@"
  else
    zle -A .accept-line accept-line
    zle .accept-line
  fi
  _hookd_armed=
}

# _hookd_rewrite_line rewrites the line for _hookd_accept_line: a question
# after the prefix into `hookd ask -- 'QUESTION'`, a mention alone into
# `hookd ask --pin REF`; anything else is left as it is.
_hookd_rewrite_line() {
  emulate -L zsh
  setopt extended_glob
  local line=${BUFFER##[[:space:]]#} rest
  if [[ $line == "$_hookd_prefix" || $line == "$_hookd_prefix"[[:space:]]* ]]; then
    rest=${line#"$_hookd_prefix"}
    rest=${${rest##[[:space:]]#}%%[[:space:]]#}
    BUFFER="$_hookd_ask_cmd ask -- ${(qq)rest}"
    CURSOR=$#BUFFER
    _hookd_asked=1
    # An offer belongs to the question that made it: one left by an
    # earlier `hookd ask` is emptied (a builtin truncation) before this
    # question can leave its own.
    [[ ! -e $_hookd_fixdir/$HOOKD_SESSION.next ]] || : 2>/dev/null >|$_hookd_fixdir/$HOOKD_SESSION.next
    # At the next prompt, the first command of the answer (once).
    add-zle-hook-widget line-init _hookd_offer_line
  elif [[ $line == (#b)'!'('!'|-[0-9]##|[0-9]##)'ctx'[[:space:]]# ]]; then
    rest=$match[1]
    [[ $rest != '!' ]] || rest=-1
    BUFFER="$_hookd_ask_cmd ask --pin $rest"
    CURSOR=$#BUFFER
  fi
}

# _hookd_offer_line (a line-init hook) puts the first command of an answer
# on the command line after a question, to edit, or run with Enter —
# unless keys were typed ahead meanwhile (they would be appended to it):
# then it waits for the fix key, as the other commands of the answer.
_hookd_offer_line() {
  emulate -L zsh
  add-zle-hook-widget -d line-init _hookd_offer_line
  [[ -n $_hookd_asked ]] || return 0
  _hookd_asked=
  local next=$_hookd_fixdir/$HOOKD_SESSION.next
  [[ -s $next ]] || return 0
  if (( PENDING == 0 )) && [[ -z $BUFFER ]]; then
    BUFFER=$(<$next)
    CURSOR=$#BUFFER
    _hookd_highlight
    # A key typed first replaces it (_hookd_offer_typed).
    typeset -g _hookd_offered=$BUFFER
    add-zle-hook-widget line-pre-redraw _hookd_offer_typed
  fi
  : >|$next
}

# _hookd_offer_typed (a line-pre-redraw hook, after each widget while an
# answer's command is on the line untouched): a printable key typed first,
# or a paste, replaces the command rather than adding to it (`./build.sh`
# then `clear` is not `./build.shclear`). Any other change, or a move and
# then a key, leaves the line to the user.
_hookd_offer_typed() {
  emulate -L zsh
  [[ -n $_hookd_offered && $BUFFER != "$_hookd_offered" ]] || return 0
  add-zle-hook-widget -d line-pre-redraw _hookd_offer_typed
  local o=$_hookd_offered
  _hookd_offered=
  if [[ $LASTWIDGET == (self-insert|bracketed-paste)* && $BUFFER == "$o"?* ]] && (( CURSOR == $#BUFFER )); then
    BUFFER=${BUFFER#"$o"}
    CURSOR=$#BUFFER
    _hookd_highlight
  fi
}

# _hookd_highlight has zsh-syntax-highlighting, where it is loaded,
# highlight the line hookd just put there as that command. The highlighter
# redraws after the widgets it wraps, and it wraps only those defined
# before it: hookd's (its line comes last in .zshrc) and the line-init
# hook are not among them. Called twice (hookd's line before the
# highlighter), it does nothing the second time.
_hookd_highlight() {
  (( ! ${+functions[_zsh_highlight]} )) || _zsh_highlight
}

# _hookd_risk_of CMD sets reply to the risk level of an offered command
# and why it is offered, from the offer's risk file (package offer's
# RiskPath), found by the command itself: (high '') when it is not there.
_hookd_risk_of() {
  emulate -L zsh
  local f=$_hookd_fixes.risk
  local -a r
  local -i i
  reply=(high '')
  [[ -r $f ]] && r=("${(@0)$(<$f)}")
  for (( i = 1; i + 2 <= $#r; i += 3 )); do
    if [[ ${r[i+2]} == "$1" ]]; then
      reply=("${r[i]}" "${r[i+1]}")
      return 0
    fi
  done
  return 0
}

# _hookd_first_safe FIX… sets REPLY to the place (from 1) of the first of
# the fixes that is not high risk, 0 when every one is.
_hookd_first_safe() {
  emulate -L zsh
  local -a reply
  local -i i
  REPLY=0
  for (( i = 1; i <= $#; i++ )); do
    _hookd_risk_of "${@[i]}"
    if [[ ${reply[1]} != high ]]; then
      REPLY=$i
      return 0
    fi
  done
  return 0
}

# _hookd_own: the line of the fix command is hookd's own, not the user's
# command (the fix it puts on the line is recorded when it runs): it is
# not recorded, nor a failure to fix (in stats or "it worked before"), and
# the fixes on offer stay those of the last failed command. Under capture,
# the mark that says so ends its output.
_hookd_own() {
  if [[ -n $_hookd_run && -n $_hookd_nonce ]]; then
    print -rn -- $'\e]6973;hookd;'$_hookd_nonce';X;'$HOOKD_SESSION';'$((_hookd_seq + 1))$'\a'
  fi
  _hookd_run=
}

# _hookd_fix puts fix N (1 to 3) of the last failed command on the command
# line, to edit or run with Enter: nothing runs without it. Its risk is
# named when it is high. fix with no number is the first fix that is not
# high risk (none: it says so, and puts nothing there).
_hookd_fix() {
  emulate -L zsh
  local n=${1-} f=$_hookd_fixes
  local -a fixes reply
  local REPLY
  _hookd_own
  # fix --ai asks the LLM about the last failure too; its fixes (merged
  # with the rules') are then the ones fix N offers.
  if [[ $n == --ai ]]; then
    command $_hookd_bin suggest --ai --failed
    return
  fi
  if [[ -n $n && $n != [123] ]]; then
    print -ru2 -- 'usage: fix [1|2|3] | fix --ai'
    return 2
  fi
  [[ -r $f ]] && fixes=("${(@0)$(<$f)}")
  fixes=(${fixes:#})
  if [[ -z $n ]]; then
    _hookd_first_safe "${fixes[@]}"
    (( ! REPLY )) || n=$REPLY
    if [[ -z $n ]] && (( $#fixes )); then
      print -ru2 -- "hookd: every fix of the last command is high risk: $_hookd_fixcmd N puts fix N (1 to $#fixes) on the command line"
      return 1
    fi
    n=${n:-1}
  fi
  if [[ -z ${fixes[n]-} ]]; then
    if (( ! $#fixes )); then
      print -ru2 -- "hookd: no fix on offer: no command has failed yet, or hookd has none for the last failure"
    else
      print -ru2 -- "hookd: no fix $n: the last failed command has $#fixes"
    fi
    return 1
  fi
  print -z -- "${fixes[n]}"
  _hookd_risk_of "${fixes[n]}"
  [[ ${reply[1]} != high ]] ||
    print -ru2 -- "hookd: high risk${reply[2]:+: ${reply[2]}}: read it before you press Enter"
  # One that holds a secret hookd redacted cannot run as it is.
  [[ ${fixes[n]} != *'[REDACTED]'* ]] ||
    print -ru2 -- 'hookd: a secret was redacted from it: put it back in place of [REDACTED] before you press Enter'
}

# _hookd_fix_key (bound to Ctrl-X f) puts the first fix that is not
# high risk on the command line, to edit or run with Enter; pressed again,
# the next one (a high-risk one is named so). When every fix is high risk,
# it puts none there by itself: fix N does.
_hookd_fix_key() {
  emulate -L zsh
  local f=$_hookd_fixes
  local -a fixes reply
  local -i i n
  local REPLY
  [[ -r $f ]] && fixes=("${(@0)$(<$f)}")
  fixes=(${fixes:#})
  (( $#fixes )) || return 0
  i=${fixes[(Ie)$BUFFER]}
  if (( i )); then
    n=$(( i % $#fixes + 1 ))
  else
    _hookd_first_safe "${fixes[@]}"
    n=$REPLY
    if (( ! n )); then
      zle -M "hookd: every fix of the last command is high risk: $_hookd_fixcmd N puts fix N on the line"
      return 0
    fi
  fi
  BUFFER=${fixes[n]}
  CURSOR=$#BUFFER
  _hookd_risk_of "${fixes[n]}"
  [[ ${reply[1]} != high ]] || zle -M "hookd: high risk${reply[2]:+: ${reply[2]}}"
  _hookd_highlight
}

# _hookd_ai_key (bound to Ctrl-X l) asks the LLM about the last failed
# command, as fix --ai does: the analysis is printed above the prompt, and
# its fixes are then the ones the fix key and fix N offer.
_hookd_ai_key() {
  emulate -L zsh
  zle -I
  if [[ ! -x $_hookd_bin ]]; then
    print -ru2 -- "hookd: $_hookd_bin is missing"
    return 0
  fi
  command $_hookd_bin suggest --ai --failed </dev/null
}

# _hookd_search_widget (the search key) runs hookd search on the terminal,
# with the command line as the query: the command chosen goes on the line,
# exactly, redrawn (and highlighted: _hookd_highlight), ready to run or to edit, or run at once (search.enter: run);
# after Esc the line stays as it was.
_hookd_search_widget() {
  emulate -L zsh
  [[ -x $_hookd_bin ]] || return 0
  local out action
  out=$(command $_hookd_bin search --widget zsh --query="$BUFFER" </dev/tty) || { zle redisplay; return 0 }
  out=${out%.}
  action=${out%%$'\n'*}
  case $action in
    accept | edit | run) ;;
    *) zle redisplay; return 0 ;;
  esac
  BUFFER=${out#*$'\n'}
  CURSOR=$#BUFFER
  _hookd_highlight
  zle redisplay
  [[ $action != run ]] || zle accept-line
}

# _hookd_compdef registers _hookd_complete with the completion system
# (where nothing else completes hookd, or the ask prefix), then takes
# itself out of the precmd hooks. It fails when compinit has not run.
_hookd_compdef() {
  [[ -v functions[compdef] ]] || return 1 # (at each prompt until compinit has run: before emulate -L, the cheapest test)
  emulate -L zsh
  precmd_functions=(${precmd_functions:#_hookd_compdef})
  (( $+_comps[hookd] )) || compdef _hookd_complete hookd
  [[ -z $_hookd_prefix ]] || (( $+_comps[$_hookd_prefix] )) || compdef _hookd_complete "$_hookd_prefix"
  return 0
}

# _hookd_complete completes the words of a hookd command line (or a
# question after the ask prefix, as hookd ask): hookd itself says what fits
# (subcommands, flags, prompt-file names, with descriptions), or that file
# names do. It runs under the completion system's options (_comp_options,
# which _files and _describe are written for), whatever the user's are.
_hookd_complete() {
  emulate -L zsh
  setopt ${_comp_options[@]}
  local -a w out cands
  local c
  w=("${(@Q)words[2,CURRENT]}")
  [[ -n $_hookd_prefix && $words[1] == "$_hookd_prefix" ]] && w=(ask "${(@)w}")
  out=("${(@f)$(command $_hookd_bin __complete -- "${(@)w}" 2>/dev/null)}")
  if [[ ${out[1]-} == :files ]]; then
    _files
    return
  fi
  for c in "${(@)out}"; do
    [[ -n $c ]] || continue
    if [[ $c == *$'\t'* ]]; then
      cands+=("${${c%%$'\t'*}//:/\\:}:${c#*$'\t'}")
    else
      cands+=("${c//:/\\:}")
    fi
  done
  (( $#cands )) && _describe -t hookd hookd cands
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
  emulate -L zsh
  local _hookd_pid= _hookd_rest
  _hookd_alive=
  { read -r _hookd_pid _hookd_rest <$_hookd_pidfile } 2>/dev/null
  if [[ -z $_hookd_pid ]]; then
    :
  elif [[ -e /proc/$$/exe ]]; then
    [[ ! -e /proc/$_hookd_pid/exe ]] || _hookd_alive=/proc/$_hookd_pid/exe
  elif kill -0 $_hookd_pid 2>/dev/null; then
    _hookd_alive=/
  fi
  if [[ -z $_hookd_alive ]] && (( SECONDS != _hookd_tried )) && [[ -x $_hookd_bin ]]; then
    _hookd_tried=$SECONDS
    (command $_hookd_bin daemon --detach </dev/null >/dev/null 2>&1 &)
  fi
  return 0
}

# _hookd_start runs the start-up, then takes every start-up function
# away (itself too), so that nothing of it is left for the prompt's path.
# (It runs without emulate -L: _hookd_take_sp changes an option for the
# whole shell. It is written for any options.)
_hookd_start() {
  _hookd_init
  unfunction _hookd_init _hookd_init_capture _hookd_proxy _hookd_init_session _hookd_query \
    _hookd_bindings _hookd_init_env _hookd_init_hooks _hookd_init_ask _hookd_init_fix _hookd_init_search _hookd_init_complete \
    _hookd_init_daemon _hookd_start
  [[ -z ${_hookd_early_fn-} ]] || unfunction hookd
  unset _hookd_early _hookd_early_fn _hookd_early_capture _hookd_umask
  [[ -z ${_hookd_nonce-} ]] || _hookd_take_sp
}

# The early line (`eval "$(hookd init zsh --early)"`, the rc file's first
# line), where it does not re-execute the shell under the proxy (it is
# there already, or capture is off), prints this file with _hookd_early set
# and without the @run@ line below: everything is defined, nothing runs
# yet. This `hookd` function then answers the usual line at the end of the
# rc file, `eval "$(hookd init zsh)"`, without starting a process: that
# line then runs _hookd_start. Any other hookd command (or that line with
# flags, or HOOKD_CAPTURE changed since) goes to the binary; a `hookd`
# function or alias of your own is left alone.
if [[ -n ${_hookd_early-} ]] && (( ! $+functions[hookd] && ! $+aliases[hookd] )); then
  typeset -g _hookd_early_fn=1 _hookd_early_capture=${HOOKD_CAPTURE-unset}
  hookd() {
    if [[ $# == 2 && $1 == init && $2 == zsh && ${HOOKD_CAPTURE-unset} == "$_hookd_early_capture" ]]; then
      print -r -- _hookd_start
    else
      command hookd "$@"
    fi
  }
fi

# @run@
_hookd_start
