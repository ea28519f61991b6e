#!/bin/sh
# Starts Chromium as an unprivileged uid, so a root harness's browser keeps its own sandbox (Chromium
# run as root refuses it and needs --no-sandbox). Playwright runs this file as the browser; the two
# switches below, which Chromium never sees, name the uid and the real binary (config/chromium-sandbox.ts).
#   --iwb-uid=<uid> --iwb-chromium=<path>   and Playwright's own switches, --user-data-dir=<dir> among them
set -eu
uid=
bin=
dir=
n=$#
i=0
while [ "$i" -lt "$n" ]; do
  a=$1
  shift
  i=$((i + 1))
  case "$a" in
    --iwb-uid=*) uid=${a#--iwb-uid=} ;;
    --iwb-chromium=*) bin=${a#--iwb-chromium=} ;;
    *)
      case "$a" in --user-data-dir=*) dir=${a#--user-data-dir=} ;; esac
      set -- "$@" "$a"
      ;;
  esac
done
if [ -z "$uid" ] || [ -z "$bin" ] || [ -z "$dir" ]; then
  echo "chromium-as-user.sh: needs --iwb-uid, --iwb-chromium and --user-data-dir" >&2
  exit 2
fi
# The profile Playwright made (as root, mode 0700) becomes the browser's, and its home.
chown -R "$uid:$uid" "$dir"
export HOME="$dir"
exec /usr/bin/setpriv --reuid="$uid" --regid="$uid" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- "$bin" "$@"
