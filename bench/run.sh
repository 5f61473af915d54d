#!/usr/bin/env bash
# run.sh measures the cost of one small tool call through each server (see
# README.md). Flags pass through to callcost, e.g.:
#   bench/run.sh                      # full run: 3 runs x 10 s phases
#   bench/run.sh -d 2s -runs 1        # quick look
#   bench/run.sh -profile 10s         # then CPU and allocation profiles
# The report goes to stdout and to bench/out/report.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v node >/dev/null && command -v npm >/dev/null; then
	if [ ! -d bench/ts/node_modules/@modelcontextprotocol/sdk ]; then
		(cd bench/ts && npm ci --no-audit --no-fund >&2)
	fi
else
	echo "run.sh: node or npm missing: the TypeScript client is skipped" >&2
fi

mkdir -p bench/out
go run ./bench/cmd/callcost "$@" | tee bench/out/report.txt
