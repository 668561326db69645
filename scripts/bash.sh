# hookd shell integration for bash (4.4 or newer).
# Load it from ~/.bashrc with:   eval "$(hookd init bash)"
#
# On every prompt this code appends one record to a spool file private to this
# shell, using builtins only: no process is started while you work. The hookd
# agent moves the records into the history database. `hookd init` fills in the
# line marked @bin@ with the path of the binary; nothing else is generated.

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
  _hookd_state=${XDG_STATE_HOME:-${HOME-}/.local/state}
  [[ $_hookd_state == /* ]] || _hookd_state=${HOME-}/.local/state
  _hookd_state+=/hookd

  # Time in microseconds since the epoch, as an arithmetic expression, without
  # a fork: EPOCHREALTIME (bash 5) with its decimal point removed, whatever the
  # locale; before bash 5, whole seconds from SECONDS and the start time.
  if [[ -n ${EPOCHREALTIME-} ]]; then
    # shellcheck disable=SC2016 # expanded later, by eval and in PS0
    _hookd_now='${EPOCHREALTIME//[!0-9]/}'
  else
    builtin printf -v _hookd_epoch0 '%(%s)T' -1
    _hookd_epoch0=$((_hookd_epoch0 - SECONDS))
    _hookd_now='((_hookd_epoch0+SECONDS)*1000000)'
  fi
  _hookd_t0=0
  builtin eval "_hookd_t0=\$(( $_hookd_now ))"
  # A new session for every shell: HOOKD_SESSION is exported for the hookd
  # CLI, but a child shell makes its own.
  HOOKD_SESSION=$_hookd_t0-$$-$RANDOM
  builtin export HOOKD_SESSION
  _hookd_spool=$_hookd_state/spool/$HOOKD_SESSION.spool
  _hookd_seq=0
  _hookd_run=
  _hookd_cwd=$PWD
  _hookd_hc=${HISTCMD-0}
  _hookd_e=()
  # How to put back the XFSZ trap after each write.
  _hookd_xfsz=$(builtin trap -p XFSZ)
  _hookd_xfsz=${_hookd_xfsz:-builtin trap - XFSZ}

  [[ -d $_hookd_state/spool ]] || command mkdir -p -m 700 -- "$_hookd_state" "$_hookd_state/spool" 2>/dev/null
  # The session header; the subshell keeps umask 077 from leaking into this shell.
  (
    builtin trap '' XFSZ
    builtin umask 077
    builtin printf '%s\0' $'\nS1' bash "$BASH_VERSION" "$$" "${HOSTNAME-}" "${USER-}" "${UID-}" \
      "$_hookd_t0" 2>/dev/null >>"$_hookd_spool"
  ) 2>/dev/null

  # PS0 is expanded after a command line is read and before it runs, and not
  # for an empty line: an arithmetic subscript notes the start time there
  # without printing anything or starting a process.
  # shellcheck disable=SC2016
  _hookd_ps0='${_hookd_e[_hookd_t0='"$_hookd_now"',_hookd_run=1,0]-}'
  PS0=${PS0-}$_hookd_ps0

  # Run first in PROMPT_COMMAND, so that $? and PIPESTATUS are the command's.
  # bash restores both after PROMPT_COMMAND, so PS1 still sees them.
  # PROMPT_COMMAND may be a string or (bash 5.1) an array.
  if [[ -n ${PROMPT_COMMAND+set} && ${PROMPT_COMMAND@a} == *a* ]]; then
    PROMPT_COMMAND=(_hookd_precmd "${PROMPT_COMMAND[@]}")
  else
    # shellcheck disable=SC2128,SC2178
    PROMPT_COMMAND=_hookd_precmd${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}
  fi

  _hookd_agent
}

# _hookd_precmd writes the record of the command that just finished.
_hookd_precmd() {
  local _hookd_s=$? _hookd_ps=("${PIPESTATUS[@]}")
  if [[ -n $_hookd_run ]]; then
    _hookd_run=
    local _hookd_t1 IFS=' '
    builtin eval "_hookd_t1=\$(( $_hookd_now ))"
    # Record only what bash put in its history list: that honours
    # `set +o history`, HISTIGNORE and HISTCONTROL=ignorespace. A line bash
    # left out may still be a repeat (ignoredups): recorded unless an ignore
    # rule could have been the reason.
    if builtin shopt -oq history &&
      { ((${HISTCMD-0} != _hookd_hc)) ||
        [[ ${HISTCONTROL-} != *ignorespace* && ${HISTCONTROL-} != *ignoreboth* && -z ${HISTIGNORE-} ]]; }; then
      _hookd_seq=$((_hookd_seq + 1))
      # Under `ulimit -f`, a write past the limit would kill the shell with
      # SIGXFSZ: ignore it for this write only (the write then just fails).
      builtin trap '' XFSZ
      {
        builtin printf '%s\0' $'\nC1' "$_hookd_seq" "$_hookd_t0" "$_hookd_t1" "$_hookd_s" "${_hookd_ps[*]}" "$_hookd_cwd" h
        HISTTIMEFORMAT='' builtin history 1
        builtin printf '\0'
      } 2>/dev/null >>"$_hookd_spool"
      builtin eval "$_hookd_xfsz"
    fi
  fi
  _hookd_hc=${HISTCMD-0}
  _hookd_cwd=$PWD
  [[ $PS0 == *"$_hookd_ps0"* ]] || PS0+=$_hookd_ps0
  return $_hookd_s
}

# _hookd_agent starts the hookd agent when it is not running. It is quiet when
# the binary is missing: the records then wait in the spool.
_hookd_agent() {
  local _hookd_pid=
  { builtin read -r _hookd_pid _ <"$_hookd_state/agent.pid"; } 2>/dev/null
  if [[ -z $_hookd_pid ]] || ! builtin kill -0 "$_hookd_pid" 2>/dev/null; then
    command "$_hookd_bin" daemon --detach </dev/null >/dev/null 2>&1
  fi
  return 0
}

_hookd_init
builtin unset -f _hookd_init
