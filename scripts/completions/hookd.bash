# bash completion for hookd, installed by the packages
# (/usr/share/bash-completion/completions/hookd). hookd itself says what
# fits: `hookd __complete -- WORD…` prints one candidate a line (a tab and
# a description after it), or :files for file names. The shell code of
# `hookd init bash` completes the same way and leaves this one in place.
# Generated from _hookd_complete in scripts/bash.sh (shellinit.Packaged;
# go test ./shellinit -update): edit that one.
_hookd_packaged_complete() {
  local _hookd_c
  local -a _hookd_w=("${COMP_WORDS[@]:1:COMP_CWORD}")
  COMPREPLY=()
  while IFS= builtin read -r _hookd_c; do
    if [[ $_hookd_c == :files ]]; then
      COMPREPLY=()
      builtin compopt -o default 2>/dev/null
      return 0
    fi
    COMPREPLY+=("${_hookd_c%%$'\t'*}")
  done < <(command "${COMP_WORDS[0]}" __complete -- "${_hookd_w[@]}" 2>/dev/null)
}
builtin complete -F _hookd_packaged_complete hookd
