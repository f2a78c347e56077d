#!/usr/bin/env bash
# kubectl (the binary in $KUBECTL: the newest, or Debian's kubernetes-client 1.20) against the
# embedded management cluster, the way its users type it. One JSON line per case on stdout:
# {"case", "ok", "error"}. Run by ../kubectl.test.ts with KUBECTL, KUBECONFIG, NAMESPACE and
# WATCH_HISTORY set.
set -uo pipefail
NS=${NAMESPACE:-cpaas-system}
HISTORY=${WATCH_HISTORY:-30}
k() { "$KUBECTL" --kubeconfig "$KUBECONFIG" -n "$NS" "$@"; }
minor=$("$KUBECTL" version --client -o json | sed -n 's/.*"minor": *"\([0-9]*\).*/\1/p' | head -n 1)
# kubectl before 1.24 validates manifests against /openapi/v2 in protobuf, which this server does
# not serve (it serves v2 as JSON and v3): those versions skip client-side validation.
validate=()
if ((minor < 24)); then validate=(--validate=false); fi
# A list's resourceVersion (`kubectl get -o jsonpath` prints a List without one).
list_rv() { k get --raw "/api/v1/namespaces/$NS/$1?limit=1" | grep -o '"resourceVersion":"[0-9]*"' | head -n 1 | grep -o '[0-9]\+'; }

fail() { echo "$*" >&2; return 1; }
# `expect_in TEXT NEEDLE WHAT`: TEXT contains NEEDLE, or the case fails saying WHAT.
expect_in() { [[ "$1" == *"$2"* ]] || fail "$3: expected '$2' in: $1"; }

case_discovery() {
  local out
  out=$(k api-resources --api-group=cluster.x-k8s.io -o name) || return 1
  expect_in "$out" "machinedeployments.cluster.x-k8s.io" "api-resources" || return 1
  out=$(k api-resources --api-group=infrastructure.cluster.x-k8s.io -o name) || return 1
  expect_in "$out" "dcsiphostnamepools.infrastructure.cluster.x-k8s.io" "DCS kinds" || return 1
  out=$(k get md -o name) || return 1
  expect_in "$out" "machinedeployment.cluster.x-k8s.io/" "short name md" || return 1
  out=$(k get dcsmachinetemplates,dcsiphostnamepools -o name) || return 1
  expect_in "$out" "dcsiphostnamepool.infrastructure.cluster.x-k8s.io/" "DCS objects" || return 1
  out=$(k get md) || return 1
  expect_in "$out" "NAME" "a table with printer columns" || return 1
  if ((minor >= 24)); then
    out=$(k explain machinedeployment.spec.replicas 2>&1) || fail "explain: $out" || return 1
  fi
}

case_paging() {
  local all paged log
  all=$(k get md -o name --chunk-size=0) || return 1
  paged=$(k get md -o name --chunk-size=1 -v=6 2>"$TMPDIR/paging.log") || return 1
  [[ "$all" == "$paged" ]] || fail "paged list differs: $paged / $all" || return 1
  log=$(cat "$TMPDIR/paging.log")
  expect_in "$log" "limit=1" "pages of one" || return 1
  expect_in "$log" "continue=" "continued" || return 1
}

case_watch_bookmarks() {
  local rv out
  rv=$(list_rv configmaps) || return 1
  k create cm kc-watched --from-literal=a=1 >/dev/null || return 1
  out=$(k get --raw "/api/v1/namespaces/$NS/configmaps?watch=1&resourceVersion=$rv&allowWatchBookmarks=true&timeoutSeconds=1") || return 1
  expect_in "$out" '"type":"ADDED"' "ADDED since the resourceVersion" || return 1
  expect_in "$out" '"type":"BOOKMARK"' "a bookmark" || return 1
  # `kubectl get -w` sees a change made while it watches.
  timeout 6 "$KUBECTL" --kubeconfig "$KUBECONFIG" -n "$NS" get cm kc-watched -w -o jsonpath='{.metadata.name}={.data.a}{"\n"}' >"$TMPDIR/watch.out" 2>&1 &
  local pid=$!
  sleep 1.5
  k patch cm kc-watched -p '{"data":{"a":"2"}}' >/dev/null || return 1
  wait "$pid"
  out=$(cat "$TMPDIR/watch.out")
  expect_in "$out" "kc-watched=2" "kubectl get -w saw the change" || return 1
}

case_watch_resume_after_410() {
  local old out fresh
  old=$(list_rv configmaps) || return 1
  k create cm kc-churn --from-literal=n=0 >/dev/null || return 1
  for i in $(seq 1 $((HISTORY + 5))); do k patch cm kc-churn -p "{\"data\":{\"n\":\"$i\"}}" >/dev/null || return 1; done
  out=$(k get --raw "/api/v1/namespaces/$NS/configmaps?watch=1&resourceVersion=$old&timeoutSeconds=1" 2>&1)
  expect_in "$out" "410" "a compacted resourceVersion is 410 Gone" || return 1
  fresh=$(list_rv configmaps) || return 1
  k patch cm kc-churn -p '{"data":{"n":"last"}}' >/dev/null || return 1
  out=$(k get --raw "/api/v1/namespaces/$NS/configmaps?watch=1&resourceVersion=$fresh&timeoutSeconds=1") || return 1
  expect_in "$out" '"n":"last"' "the change after the new list" || return 1
}

cm_yaml() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kc-ssa\n  namespace: %s\ndata:\n%s\n' "$NS" "$1"; }

case_server_side_apply() {
  local out
  cm_yaml '  a: "1"
  b: "2"' | k apply "${validate[@]}" --server-side --field-manager=alice -f - >/dev/null || return 1
  cm_yaml '  a: "1"' | k apply "${validate[@]}" --server-side --field-manager=bob -f - >/dev/null || return 1
  out=$(k get cm kc-ssa -o jsonpath='{range .metadata.managedFields[*]}{.manager}:{.fieldsV1.f:data}{";"}{end}' --show-managed-fields 2>/dev/null ||
    k get cm kc-ssa -o jsonpath='{range .metadata.managedFields[*]}{.manager}:{.fieldsV1.f:data}{";"}{end}')
  expect_in "$out" 'alice:{"f:a":{},"f:b":{}}' "alice owns a and b" || return 1
  expect_in "$out" 'bob:{"f:a":{}}' "bob shares a" || return 1
  out=$(cm_yaml '  b: "3"' | k apply "${validate[@]}" --server-side --field-manager=bob -f - 2>&1) && fail "no conflict" && return 1
  expect_in "$out" 'conflict with "alice": .data.b' "the conflict names alice and the field" || return 1
  cm_yaml '  b: "3"' | k apply "${validate[@]}" --server-side --field-manager=bob --force-conflicts -f - >/dev/null || return 1
  out=$(k get cm kc-ssa -o jsonpath='{.data.a},{.data.b}')
  [[ "$out" == "1,3" ]] || fail "after force: $out" || return 1
}

case_status_and_scale() {
  local md replicas out
  md=$(k get md -o jsonpath='{.items[0].metadata.name}') || return 1
  replicas=$(k get md "$md" -o jsonpath='{.spec.replicas}') || return 1
  k scale md "$md" --replicas=$((replicas + 1)) >/dev/null || return 1
  out=$(k get md "$md" -o jsonpath='{.spec.replicas}')
  [[ "$out" == "$((replicas + 1))" ]] || fail "scaled to $out" || return 1
  out=$(k get --raw "/apis/cluster.x-k8s.io/v1beta1/namespaces/$NS/machinedeployments/$md/scale") || return 1
  expect_in "$out" '"kind":"Scale"' "a Scale" || return 1
  if ((minor >= 24)); then
    k patch md "$md" --subresource=status --type=merge -p '{"status":{"phase":"Failed"}}' >/dev/null || return 1
    out=$(k get md "$md" -o jsonpath='{.status.phase}')
    [[ "$out" == "Failed" ]] || fail "status phase $out" || return 1
  fi
}

case_optimistic_concurrency() {
  local out
  k create cm kc-occ --from-literal=v=1 >/dev/null || return 1
  k get cm kc-occ -o yaml >"$TMPDIR/occ.yaml" || return 1
  k patch cm kc-occ -p '{"data":{"v":"2"}}' >/dev/null || return 1
  sed -i 's/v: "1"/v: "3"/' "$TMPDIR/occ.yaml"
  out=$(k replace "${validate[@]}" -f "$TMPDIR/occ.yaml" 2>&1) && fail "a stale replace went through" && return 1
  expect_in "$out" "the object has been modified; please apply your changes to the latest version and try again" "409" || return 1
}

case_error_status() {
  local out
  out=$(k get md no-such-pool 2>&1) && fail "found" && return 1
  expect_in "$out" 'Error from server (NotFound): machinedeployments.cluster.x-k8s.io "no-such-pool" not found' "NotFound" || return 1
  k create cm kc-twice >/dev/null || return 1
  out=$(k create cm kc-twice 2>&1) && fail "created twice" && return 1
  expect_in "$out" 'configmaps "kc-twice" already exists' "AlreadyExists" || return 1
  out=$(k create cm Bad_Name 2>&1) && fail "an invalid name" && return 1
  expect_in "$out" 'ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"' "Invalid" || return 1
}

owner_and_child() {
  k create cm "$1" >/dev/null || return 1
  local uid
  uid=$(k get cm "$1" -o jsonpath='{.metadata.uid}')
  printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"%s","uid":"%s"}]}}' "$2" "$1" "$uid" | k create "${validate[@]}" -f - >/dev/null
}

case_deletion() {
  owner_and_child kc-fg-owner kc-fg-child || return 1
  k delete cm kc-fg-owner --cascade=foreground --wait=true >/dev/null || return 1
  k wait --for=delete cm/kc-fg-child --timeout=10s >/dev/null 2>&1 || ! k get cm kc-fg-child >/dev/null 2>&1 || fail "foreground left the child" || return 1
  owner_and_child kc-bg-owner kc-bg-child || return 1
  k delete cm kc-bg-owner --cascade=background >/dev/null || return 1
  k wait --for=delete cm/kc-bg-child --timeout=10s >/dev/null 2>&1 || ! k get cm kc-bg-child >/dev/null 2>&1 || fail "background left the child" || return 1
  owner_and_child kc-or-owner kc-or-child || return 1
  k delete cm kc-or-owner --cascade=orphan >/dev/null || return 1
  sleep 0.5
  k get cm kc-or-child >/dev/null || fail "orphan deleted the child" || return 1
}

case_access_reviews() {
  local v="--context=sim-viewer"
  [[ $(k $v auth can-i list machinedeployments.cluster.x-k8s.io) == yes ]] || fail "viewer may list pools" || return 1
  [[ $(k $v auth can-i delete machinedeployments.cluster.x-k8s.io) == no ]] || fail "viewer may not delete pools" || return 1
  [[ $(k $v auth can-i get secrets) == no ]] || fail "viewer may not read Secrets" || return 1
  local out
  out=$(k $v auth can-i --list) || return 1
  expect_in "$out" "*.cluster.x-k8s.io" "rules review" || return 1
  out=$(k $v create cm kc-denied 2>&1) && fail "the viewer created" && return 1
  expect_in "$out" 'configmaps is forbidden: User "sim-viewer" cannot create resource "configmaps" in API group "" in the namespace "'"$NS"'"' "Forbidden" || return 1
}

case_impersonation() {
  local out
  # The operator (system:masters) may impersonate anyone; the request then runs as that user.
  [[ $(k --as=sim-viewer auth can-i delete machinedeployments.cluster.x-k8s.io) == no ]] || fail "--as=sim-viewer may not delete pools" || return 1
  [[ $(k --as=sim-viewer auth can-i list machinedeployments.cluster.x-k8s.io) == yes ]] || fail "--as=sim-viewer may list pools" || return 1
  [[ $(k --as=someone --as-group=system:masters auth can-i delete machinedeployments.cluster.x-k8s.io) == yes ]] || fail "--as-group=system:masters may delete" || return 1
  out=$(k --as=sim-viewer get md -o name) || return 1
  expect_in "$out" "machinedeployment.cluster.x-k8s.io/" "get as the viewer" || return 1
  out=$(k --as=sim-viewer create cm kc-as-denied 2>&1) && fail "created as the viewer" && return 1
  expect_in "$out" 'configmaps is forbidden: User "sim-viewer" cannot create resource "configmaps"' "Forbidden as the viewer" || return 1
  if ((minor >= 28)); then
    out=$(k --as=someone --as-group=team-a --as-group=team-b auth whoami -o jsonpath='{.status.userInfo.groups}') || return 1
    expect_in "$out" '"team-a","team-b","system:authenticated"' "whoami --as --as-group" || return 1
  fi
  # The viewer may impersonate no one.
  out=$(k --context=sim-viewer --as=someone get md 2>&1) && fail "the viewer impersonated" && return 1
  expect_in "$out" 'users "someone" is forbidden: User "sim-viewer" cannot impersonate resource "users" in API group "" at the cluster scope' "impersonation refused" || return 1
}

TMPDIR=$(mktemp -d)
trap 'rm -rf "$TMPDIR"' EXIT
for fn in $(declare -F | awk '{print $3}' | grep '^case_'); do
  name=${fn#case_}
  if [[ $# -gt 0 && " $* " != *" $name "* ]]; then continue; fi
  if err=$("$fn" 2>&1 >/dev/null); then
    printf '{"case":"%s","ok":true}\n' "$name"
  else
    esc=$(printf '%s' "$err" | tail -n 5 | sed 's/\\/\\\\/g; s/"/\\"/g' | tr '\n\t' '  ')
    printf '{"case":"%s","ok":false,"error":"%s"}\n' "$name" "$esc"
  fi
done
