#!/usr/bin/env zsh
# zsh_complete.zsh DIR 'words to complete': the candidates zsh's completion
# system offers after Tab, sorted, one per line. It drives an interactive zsh
# in a pseudo-terminal with DIR first in $fpath, and records every match added
# through compadd (marked with control characters, which the echo of what is
# typed cannot contain).
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT=''; RPROMPT=''"
zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits; builtin compadd -A __hits "$@"; local r=$?
  local h; for h in $__hits; do print -rn -- $'"'"'\x01'"'"'$h$'"'"'\x02'"'"'; done
  return $r
}'
zpty -w z 'finish() { print -n $'"'"'\x03'"'"' }; comppostfuncs=(finish)'
zpty -w -n z "$2"$'\t'
local out line i
for i in {1..1200}; do  # up to a minute on a loaded machine
  if zpty -r -t z line 2>/dev/null; then
    out+=$line
    [[ $line == *$'\x03'* ]] && break
  else
    sleep 0.05
  fi
done
if [[ -n $DEBUG ]]; then print -r -- "$out" | cat -v | tail -c 800; fi
print -r -- "$out" | grep -ao $'\x01[^\x02]*\x02' | tr -d '\001\002' | sort -u
zpty -d z
