#!/bin/sh
# A small Kalah bot speaking the line protocol (docs/line-protocol.md), the program side of
# `mancala grade`: it answers `position <position>` with `ok <position>` and `go …` with
# `bestmove <move> …`, `quit` with `bye`, anything else with `error …`.
#
# Its move is the first legal one: the lowest-numbered house of the side to move that holds
# a seed. The first argument changes that, for the grader's tests:
#   first    the first legal move (the default)
#   illegal  always `bestmove 7`, a house no board of the tests has
#   hang     like `first`, but never answers `go` when North is to move
mode=${1:-first}
while IFS= read -r line; do
  set -- $line
  case "$1" in
    position)
      pos=$2
      side=$3
      echo "ok $pos $side"
      ;;
    go)
      if [ "$mode" = illegal ]; then
        echo "bestmove 7 score 0 depth 0 nodes 0 exact false"
        continue
      fi
      if [ "$mode" = hang ] && [ "$side" = N ]; then
        exec sleep 60
      fi
      # The board: S1..Sm, S store, N1..Nm, N store.
      old_ifs=$IFS
      IFS=,
      set -- $pos
      IFS=$old_ifs
      m=$(( ($# - 2) / 2 ))
      if [ "$side" = N ]; then
        shift $(( m + 1 ))
      fi
      mv=0
      i=1
      while [ $i -le $m ]; do
        if [ "$1" -gt 0 ]; then
          mv=$i
          break
        fi
        shift
        i=$(( i + 1 ))
      done
      if [ $mv -eq 0 ]; then
        echo "error go: the game is over"
      else
        echo "bestmove $mv score 0 depth 1 nodes 1 exact false"
      fi
      ;;
    quit)
      echo bye
      exit 0
      ;;
    "")
      ;;
    *)
      echo "error unknown request \`$1\`: position, go or quit"
      ;;
  esac
done
