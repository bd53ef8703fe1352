# schemathesis (from PyPI, pinned, in a cached venv) against the live service on the store MONGODB_URI selects
# (unset: embedded), with alice's real token from the stub IdP. Sourced by .ci/run; never part of `npm test`.
# Configuration and the by-design exceptions, each with its reason: .ci/schemathesis.toml.

SCHEMATHESIS_VERSION=4.32.5

# Python ≥ 3.12: on 3.11 Hypothesis trips a CPython AST bug ("AST constructor recursion depth mismatch") while
# describing strategies, which schemathesis reports as a runtime error of the run.
schemathesis_python() {
  local candidate
  # pyenv's shims exist for every installed version but only run the selected one, so its versions are asked directly.
  for candidate in python3.13 python3.12 $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -V -r) python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  command -v python3 >/dev/null && { echo python3; return 0; }
  return 1
}

schemathesis_install() {
  local python version
  python=$(schemathesis_python) || { echo "schemathesis: no python3" >&2; return 1; }
  version=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
  SCHEMATHESIS_VENV="${XDG_CACHE_HOME:-$HOME/.cache}/gatehouse/schemathesis-$SCHEMATHESIS_VERSION-py$version"
  if [ -x "$SCHEMATHESIS_VENV/bin/st" ] && [ "$("$SCHEMATHESIS_VENV/bin/st" --version 2>/dev/null)" = "st, version $SCHEMATHESIS_VERSION" ]; then
    echo "schemathesis: cached $SCHEMATHESIS_VENV"; return 0
  fi
  rm -rf "$SCHEMATHESIS_VENV"
  "$python" -m venv "$SCHEMATHESIS_VENV" || return 1
  "$SCHEMATHESIS_VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" || return 1
  echo "schemathesis: installed $SCHEMATHESIS_VERSION with $python ($version)"
}

# schemathesis_run LABEL: starts the target, runs every check, prints one counts line; sets SCHEMATHESIS_CASES and
# SCHEMATHESIS_FAILURES (failures + errors) and returns non-zero when there is any.
schemathesis_run() {
  local label=$1 work pid rc i
  work=$(mktemp -d)
  SCHEMATHESIS_CASES=0; SCHEMATHESIS_FAILURES=1
  node .ci/fuzz-target.mjs "$work/target.json" > "$work/target.log" 2>&1 &
  pid=$!
  for i in $(seq 1 300); do [ -s "$work/target.json" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if [ ! -s "$work/target.json" ]; then
    echo "schemathesis $label: the target did not start" >&2; cat "$work/target.log" >&2
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"; return 1
  fi
  field() { node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]])' "$work/target.json" "$1"; }
  (
    cd "$work" || exit 1
    GH_FUZZ_TOKEN=$(field token) GH_FUZZ_ORGANIZATION_ID=$(field organizationId) GH_FUZZ_REGISTRATION_ID=$(field registrationId) \
      GH_FUZZ_DELETABLE_REGISTRATION_ID=$(field deletableRegistrationId) \
      GH_FUZZ_WEBHOOK_ID=$(field webhookId) GH_FUZZ_DELETABLE_WEBHOOK_ID=$(field deletableWebhookId) \
      GH_FUZZ_DELIVERY_ID=$(field deliveryId) GH_FUZZ_ACTIVE_REGISTRATION_ID=$(field activeRegistrationId) \
      GH_FUZZ_CHANGE_SET_ID=$(field changeSetId) \
      "$SCHEMATHESIS_VENV/bin/st" --config-file "$OLDPWD/.ci/schemathesis.toml" run "$(field url)/api/v1/openapi.json" \
      --checks all --workers 2 --no-color --report json --report-dir "$work/report"
  )
  rc=$?
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  local report counts
  report=$(ls "$work"/report/*.json 2>/dev/null | head -1)
  if [ -n "$report" ]; then
    counts=$(node -e '
      const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      const failures = r.failures.reduce((n, f) => n + f.count, 0);
      const byCode = r.failures.map((f) => `${f.code} ${f.title}: ${f.count}`).join("; ");
      console.log(`${r.test_cases.generated} ${failures + r.errors.length} ${Object.keys(r.valid_rates ?? {}).length} ${byCode || "none"}`);
    ' "$report")
    SCHEMATHESIS_CASES=${counts%% *}; counts=${counts#* }
    SCHEMATHESIS_FAILURES=${counts%% *}; counts=${counts#* }
    echo "schemathesis $label: ${counts%% *} operations, $SCHEMATHESIS_CASES test cases, $SCHEMATHESIS_FAILURES failures or errors (${counts#* })"
  else
    echo "schemathesis $label: no report (exit $rc)" >&2
  fi
  rm -rf "$work"
  [ "$rc" -eq 0 ] && [ "$SCHEMATHESIS_FAILURES" -eq 0 ]
}
