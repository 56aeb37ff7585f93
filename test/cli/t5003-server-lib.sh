#!/bin/sh
# The server library in process (build/test/pk-server-test, TAP): start and
# stop on port 0 without leaking a descriptor, every endpoint against the
# engine's own answers, the limits, stopping under a client, and four
# clients uploading and previewing at once on a pool of threads.
. "$(dirname "$0")/lib.sh"
"$TBIN/pk-server-test"
