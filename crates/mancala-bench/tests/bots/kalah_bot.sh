#!/bin/sh
# A small Kalah bot speaking the line protocol (docs/line-protocol.md), the program side of
# `mancala grade`: it answers `position <position>` with `ok <position>` and `go …` with
# `bestmove <move> …`, `quit` with `bye`, anything else with `error …`.
#
# Its move is the first legal one: the lowest-numbered house of the side to move that holds
# a seed. The first argument changes that, for the grader's tests:
#   first    the first legal move (the default)
#   illegal  always `bestmove 7`, a house no board of the tests has
#   padded   always `bestmove 07`: the same illegal move, with a leading zero
#   hang     like `first`, but never answers `go` when North is to move
#   flood    like `first`, but writes blank lines without end instead of answering `go`
#            when North is to move
#   crash    like `first`, but ends (exit status 3) instead of answering `go` when North is
#            to move, its last line on standard error `kalah_bot: crash mode: North to move`
#   hangkids like `hang`, but ignoring SIGINT, SIGTERM and SIGHUP, and waiting for two
#            children it starts (not exec'd): a `sleep 1003` in a session of its own
#            (`setsid`, so outside its process group) and a plain `sleep 1003`. It appends
#            the process ids of both children, one a line, to FILE.kids, then writes its own
#            process id and its blocked-signal mask (SigBlk of /proc/self/status, where there
#            is one) to FILE, the file given as the second argument
#   setsid   like `hang`, but at each start appends its process id to FILE.kids and starts
#            a `sleep 1003` in a session of its own (`setsid`), which appends its own id
#            too (it keeps the program's standard input and output open)
#   twice    like `first`, but writes each `bestmove` line twice
#   long     answers `go` with one line of 10000 `x`
#   slow     like `first`, but takes 1.5 s to start
#   swap     like `first`, but answers `swap` whenever North is to move (the pie rule's
#            swap: legal at North's first move only, after which the bot plays South)
mode=${1:-first}
pidfile=$2
if [ "$mode" = slow ]; then
  sleep 1.5
fi
# A `sleep 1003` in a session of its own: it appends its process id to FILE.kids.
detached() {
  setsid sh -c 'echo $$ >> "$1"; exec sleep 1003' sh "$pidfile.kids" &
}
if [ "$mode" = setsid ]; then
  echo $$ >> "$pidfile.kids"
  ids=$(wc -l < "$pidfile.kids")
  detached
  # The child's id is written before the first request is read.
  while [ "$(wc -l < "$pidfile.kids")" -le "$ids" ]; do
    sleep 0.01
  done
  mode=hang
fi
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
      if [ "$mode" = padded ]; then
        echo "bestmove 07 score 0 depth 0 nodes 0 exact false"
        continue
      fi
      if [ "$mode" = hang ] && [ "$side" = N ]; then
        exec sleep 60
      fi
      if [ "$mode" = flood ] && [ "$side" = N ]; then
        exec yes ''
      fi
      if [ "$mode" = crash ] && [ "$side" = N ]; then
        echo "kalah_bot: some words before the end" >&2
        echo "kalah_bot: crash mode: North to move" >&2
        exit 3
      fi
      if [ "$mode" = hangkids ] && [ "$side" = N ]; then
        trap '' INT TERM HUP
        detached
        sleep 1003 &
        echo $! >> "$pidfile.kids"
        # Both children's ids are written before FILE appears.
        while [ "$(wc -l < "$pidfile.kids")" -lt 2 ]; do
          sleep 0.01
        done
        echo $$ > "$pidfile.tmp"
        grep SigBlk /proc/self/status >> "$pidfile.tmp" 2>/dev/null
        mv "$pidfile.tmp" "$pidfile"
        wait
        continue
      fi
      if [ "$mode" = swap ] && [ "$side" = N ]; then
        echo "bestmove swap score 0 depth 0 nodes 0 exact false"
        continue
      fi
      if [ "$mode" = long ]; then
        head -c 10000 /dev/zero | tr '\0' x
        echo
        continue
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
        if [ "$mode" = twice ]; then
          echo "bestmove $mv score 0 depth 1 nodes 1 exact false"
        fi
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
