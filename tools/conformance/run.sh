#!/usr/bin/env bash
# The official MCP conformance suites against a started service (`npm run test:conformance`, run by
# .ci/run): @modelcontextprotocol/conformance 0.1.16, then 0.2.0-alpha.12 with `--suite all` and
# with `--requirements 2026-07-28`. Both need Node 22, which npx takes from npm (the service runs
# on the Node of the repository; `npm test` runs 0.1.13, the devDependency, which runs on 20). Each run
# lists its expected failures in conformance/ (one line each saying why); any other failure, or an
# expected failure that passes, fails the run. Results go to .conformance/.
#
# The service runs on the bundled sample over a throwaway SQLite store. Every 2025-era scenario
# opens sessions (`initialize`), about 60 per run, so two runs within a minute would pass the
# default MCP_INITIALIZE_PER_MIN (60 per client address per minute) and fail with 429s: the run
# sets it to 100,000 (the limit itself is tested in test/e2e/mcp-limits.test.ts).
set -euo pipefail
cd "$(dirname "$0")/../.."

STABLE='@modelcontextprotocol/conformance@0.1.16'
ALPHA='@modelcontextprotocol/conformance@0.2.0-alpha.12'
NODE22='node@22'
out=.conformance
mkdir -p "$out"
dir=$(mktemp -d)
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
url="http://127.0.0.1:${port}"

PORT="$port" HOST=127.0.0.1 BASE_URL="$url" DATABASE_URL="sqlite:${dir}/reviews.db" \
  SAMPLE_DATA=on LOG_LEVEL=warn MCP_INITIALIZE_PER_MIN=100000 \
  node dist/src/main.js >"$out/service.log" 2>&1 &
service=$!
cleanup() {
  kill "$service" 2>/dev/null || true
  wait "$service" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

# Ready once /healthz answers 200 (at most 60 s).
node -e "
const deadline = Date.now() + 60000;
(async () => {
  while (Date.now() < deadline) {
    try { if ((await fetch('$url/healthz')).ok) return; } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  console.error('the service did not start: see $out/service.log');
  process.exit(1);
})();
"

status=0
run() {
  local name=$1
  shift
  echo "== conformance: $name"
  local code=0
  "$@" --url "$url/mcp" -o "$out/$name" >"$out/$name.txt" 2>&1 || code=$?
  grep -vE '^npm warn' "$out/$name.txt" | tail -n 25
  if [ "$code" -ne 0 ]; then
    echo "== conformance: $name FAILED (exit $code; $out/$name.txt)"
    status=1
  fi
}

run v0.1.16 npx -y -p "$NODE22" -p "$STABLE" conformance server \
  --expected-failures conformance/expected-failures.yml
run alpha12-all npx -y -p "$NODE22" -p "$ALPHA" conformance server --suite all \
  --expected-failures conformance/expected-failures-alpha.yml
run alpha12-2026-07-28 npx -y -p "$NODE22" -p "$ALPHA" conformance server \
  --requirements 2026-07-28 --expected-failures conformance/expected-failures-alpha.yml
exit $status
