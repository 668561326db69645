# hookd's own hook (fish). $HOOKD = hookd binary (default: hookd in PATH).
# Run with an isolated HOME/XDG tree (hook_overhead.py does that) and the agent
# started against that tree beforehand.
set -q HOOKD; or set HOOKD hookd
$HOOKD init fish | source
