"""The official Kubernetes Python client (Debian's python3-kubernetes) against the embedded
management cluster, the way its users drive a real one: the generated APIs, the dynamic client
and kubernetes.watch. One JSON line per case on stdout: {"case", "ok", "error"}.

Run by ../python.test.ts with KUBECONFIG (contexts sim-operator and sim-viewer), NAMESPACE and
WATCH_HISTORY set.
"""
import json
import os
import sys
import time
import traceback

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient

NS = os.environ.get("NAMESPACE", "cpaas-system")
HISTORY = int(os.environ.get("WATCH_HISTORY", "30"))
CAPI = "cluster.x-k8s.io"
INFRA = "infrastructure.cluster.x-k8s.io"


def api(context="sim-operator"):
    return config.new_client_from_config(config_file=os.environ["KUBECONFIG"], context=context)


OP = api()
CORE = client.CoreV1Api(OP)
CUSTOM = client.CustomObjectsApi(OP)
DYN = DynamicClient(OP)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def status_of(e):
    """The Status body of an ApiException, as its users read it."""
    return json.loads(e.body)


def configmap(name, data, owner=None):
    meta = {"name": name, "namespace": NS}
    if owner is not None:
        meta["ownerReferences"] = [
            {"apiVersion": "v1", "kind": "ConfigMap", "name": owner.metadata.name, "uid": owner.metadata.uid}
        ]
    return CORE.create_namespaced_config_map(NS, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": data})


def case_discovery():
    md = DYN.resources.get(api_version=CAPI + "/v1beta1", kind="MachineDeployment")
    check(md.namespaced and "scale" in md.subresources and "status" in md.subresources, "MachineDeployment with status and scale")
    check("md" in md.short_names, "short name md")
    for kind in ("DCSMachine", "DCSMachineTemplate", "DCSIpHostnamePool"):
        DYN.resources.get(api_version=INFRA + "/v1beta1", kind=kind)
    items = md.get(namespace=NS).items
    check(len(items) > 0, "the demo's MachineDeployments are listed")
    versions = client.VersionApi(OP).get_code()
    check(versions.major == "1", "the /version endpoint")
    groups = [g.name for g in client.ApisApi(OP).get_api_versions().groups]
    check(CAPI in groups and INFRA in groups, "the Cluster API groups are discovered: %s" % groups)


def case_paging():
    everything = CUSTOM.list_namespaced_custom_object(CAPI, "v1beta1", NS, "machinedeployments")
    names = [m["metadata"]["name"] for m in everything["items"]]
    check(len(names) >= 2, "at least two pools to page through")
    paged, token, pages = [], None, 0
    while True:
        kw = {"limit": 1}
        if token:
            kw["_continue"] = token
        page = CUSTOM.list_namespaced_custom_object(CAPI, "v1beta1", NS, "machinedeployments", **kw)
        pages += 1
        paged += [m["metadata"]["name"] for m in page["items"]]
        token = page["metadata"].get("continue")
        if pages == 1:
            check(page["metadata"].get("remainingItemCount") == len(names) - 1, "remainingItemCount on the first page")
        if not token:
            break
    check(paged == names and pages == len(names), "one item a page, the same items in the same order")


def case_watch_bookmarks():
    rv = CORE.list_namespaced_config_map(NS).metadata.resource_version
    configmap("py-watched", {"a": "1"})
    w = watch.Watch()
    seen = []
    for ev in w.stream(CORE.list_namespaced_config_map, NS, resource_version=rv, allow_watch_bookmarks=True, timeout_seconds=10):
        seen.append(ev["type"])
        if ev["type"] == "ADDED":
            check(ev["object"].metadata.name == "py-watched", "the object created after the resourceVersion")
        if ev["type"] == "BOOKMARK":
            check(int(ev["raw_object"]["metadata"]["resourceVersion"]) >= int(rv), "a bookmark carries a resourceVersion")
            w.stop()
    check(seen[:1] == ["ADDED"] and "BOOKMARK" in seen, "ADDED then a bookmark, got %s" % seen)


def case_watch_resume_after_410():
    old = CORE.list_namespaced_config_map(NS).metadata.resource_version
    configmap("py-churn", {"n": "0"})
    for i in range(HISTORY + 5):
        CORE.patch_namespaced_config_map("py-churn", NS, {"data": {"n": str(i)}})
    try:
        for _ in watch.Watch().stream(CORE.list_namespaced_config_map, NS, resource_version=old, timeout_seconds=5):
            pass
        raise AssertionError("a watch from a compacted resourceVersion did not fail")
    except ApiException as e:
        check(e.status == 410, "410 Gone, got %s" % e.status)
    # Recover as the client's docs say: list again, watch from the list's resourceVersion.
    fresh = CORE.list_namespaced_config_map(NS).metadata.resource_version
    CORE.patch_namespaced_config_map("py-churn", NS, {"data": {"n": "last"}})
    w = watch.Watch()
    for ev in w.stream(CORE.list_namespaced_config_map, NS, resource_version=fresh, timeout_seconds=10):
        check(ev["type"] == "MODIFIED" and ev["object"].data["n"] == "last", "the change after the new list")
        w.stop()


def managers(obj):
    out = {}
    for e in obj["metadata"]["managedFields"]:
        out[e["manager"] + "/" + e["operation"]] = sorted(e["fieldsV1"].get("f:data", {}).keys())
    return out


def case_server_side_apply():
    cm = DYN.resources.get(api_version="v1", kind="ConfigMap")

    def ssa(resource, body, manager, force=None):
        # This client's REST layer serializes only JSON content types: an apply's body goes as
        # text (JSON is YAML), as its users send one.
        meta = body["metadata"]
        return DYN.server_side_apply(resource, body=json.dumps(body), name=meta["name"], namespace=meta["namespace"],
                                     field_manager=manager, force_conflicts=force).to_dict()

    def apply(data, manager, force=None):
        body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-ssa", "namespace": NS}, "data": data}
        return ssa(cm, body, manager, force)

    apply({"a": "1", "b": "2"}, "alice")
    both = apply({"a": "1"}, "bob")
    check(managers(both) == {"alice/Apply": ["f:a", "f:b"], "bob/Apply": ["f:a"]}, "a shared: %s" % managers(both))
    try:
        apply({"b": "3"}, "bob")
        raise AssertionError("no conflict")
    except ApiException as e:
        check(e.status == 409, "409")
        s = status_of(e)
        check(s["reason"] == "Conflict" and s["message"] == 'Apply failed with 1 conflict: conflict with "alice": .data.b', s["message"])
        check(s["details"]["causes"][0]["field"] == ".data.b", "the conflict's field")
    forced = apply({"b": "3"}, "bob", force=True)
    check(forced["data"] == {"a": "1", "b": "3"}, "force takes b, and a stays (alice still applies it)")
    check(managers(forced) == {"alice/Apply": ["f:a"], "bob/Apply": ["f:b"]}, "after force: %s" % managers(forced))
    gone = apply({"a": "1"}, "alice")
    check(gone["data"] == {"a": "1", "b": "3"}, "b stays: bob owns it")
    # A list type: a Role's rules are atomic, so a second manager applying other rules conflicts.
    role = DYN.resources.get(api_version="rbac.authorization.k8s.io/v1", kind="Role")
    rule = {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]}
    body = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "py-role", "namespace": NS}, "rules": [rule]}
    ssa(role, body, "alice")
    body["rules"] = [dict(rule, verbs=["list"])]
    try:
        ssa(role, body, "bob")
        raise AssertionError("no conflict on an atomic list")
    except ApiException as e:
        check(e.status == 409 and ".rules" in status_of(e)["message"], status_of(e)["message"])


def case_status_and_scale():
    mds = CUSTOM.list_namespaced_custom_object(CAPI, "v1beta1", NS, "machinedeployments")["items"]
    name = mds[0]["metadata"]["name"]
    scale = CUSTOM.get_namespaced_custom_object_scale(CAPI, "v1beta1", NS, "machinedeployments", name)
    check(scale["kind"] == "Scale" and scale["apiVersion"] == "autoscaling/v1", "a Scale")
    replicas = scale["spec"]["replicas"]
    after = CUSTOM.patch_namespaced_custom_object_scale(CAPI, "v1beta1", NS, "machinedeployments", name, {"spec": {"replicas": replicas + 1}})
    check(after["spec"]["replicas"] == replicas + 1, "scaled")
    md = CUSTOM.get_namespaced_custom_object(CAPI, "v1beta1", NS, "machinedeployments", name)
    check(md["spec"]["replicas"] == replicas + 1, "the scale wrote spec.replicas")
    st = CUSTOM.patch_namespaced_custom_object_status(CAPI, "v1beta1", NS, "machinedeployments", name, {"status": {"phase": "Failed"}})
    check(st["status"]["phase"] == "Failed", "status written through /status")
    spec = CUSTOM.patch_namespaced_custom_object(CAPI, "v1beta1", NS, "machinedeployments", name, {"status": {"phase": "Running"}})
    check(spec["status"]["phase"] == "Failed", "the main resource ignores status")


def case_optimistic_concurrency():
    cm = configmap("py-occ", {"v": "1"})
    stale = cm.metadata.resource_version
    CORE.patch_namespaced_config_map("py-occ", NS, {"data": {"v": "2"}})
    cm.data = {"v": "3"}
    cm.metadata.resource_version = stale
    try:
        CORE.replace_namespaced_config_map("py-occ", NS, cm)
        raise AssertionError("a stale update was accepted")
    except ApiException as e:
        s = status_of(e)
        check(e.status == 409 and s["reason"] == "Conflict", "409 Conflict")
        check("the object has been modified; please apply your changes to the latest version and try again" in s["message"], s["message"])
    fresh = CORE.read_namespaced_config_map("py-occ", NS)
    fresh.data = {"v": "3"}
    check(CORE.replace_namespaced_config_map("py-occ", NS, fresh).data == {"v": "3"}, "retried on the latest")


def case_error_status():
    try:
        CUSTOM.get_namespaced_custom_object(CAPI, "v1beta1", NS, "machinedeployments", "no-such-pool")
        raise AssertionError("found")
    except ApiException as e:
        s = status_of(e)
        check(e.status == 404 and s["kind"] == "Status" and s["reason"] == "NotFound", "404 NotFound Status")
        check(s["details"] == {"name": "no-such-pool", "group": CAPI, "kind": "machinedeployments"}, str(s["details"]))
        check(s["message"] == 'machinedeployments.cluster.x-k8s.io "no-such-pool" not found', s["message"])
    configmap("py-twice", {})
    try:
        configmap("py-twice", {})
        raise AssertionError("created twice")
    except ApiException as e:
        check(e.status == 409 and status_of(e)["reason"] == "AlreadyExists", "409 AlreadyExists")
    try:
        CORE.create_namespaced_config_map(NS, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "Bad_Name"}})
        raise AssertionError("an invalid name was accepted")
    except ApiException as e:
        s = status_of(e)
        check(e.status == 422 and s["reason"] == "Invalid" and s["details"]["causes"][0]["field"] == "metadata.name", json.dumps(s))


def wait_gone(name, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            CORE.read_namespaced_config_map(name, NS)
        except ApiException as e:
            if e.status == 404:
                return
            raise
        time.sleep(0.1)
    raise AssertionError("%s still there" % name)


def case_deletion():
    owner = configmap("py-fg-owner", {})
    configmap("py-fg-child", {}, owner)
    CORE.delete_namespaced_config_map("py-fg-owner", NS, body=client.V1DeleteOptions(propagation_policy="Foreground"))
    wait_gone("py-fg-child")
    wait_gone("py-fg-owner")
    owner = configmap("py-bg-owner", {})
    configmap("py-bg-child", {}, owner)
    st = CORE.delete_namespaced_config_map("py-bg-owner", NS, propagation_policy="Background")
    check(st.status == "Success", "a Status Success")
    wait_gone("py-bg-owner", 1)
    wait_gone("py-bg-child")
    owner = configmap("py-or-owner", {})
    configmap("py-or-child", {}, owner)
    CORE.delete_namespaced_config_map("py-or-owner", NS, body=client.V1DeleteOptions(propagation_policy="Orphan"))
    wait_gone("py-or-owner")
    time.sleep(0.3)
    child = CORE.read_namespaced_config_map("py-or-child", NS)
    check(not child.metadata.owner_references, "the orphan keeps no owner reference")


def case_access_reviews():
    viewer = client.AuthorizationV1Api(api("sim-viewer"))

    def can(verb, resource, group=CAPI):
        body = client.V1SelfSubjectAccessReview(spec=client.V1SelfSubjectAccessReviewSpec(
            resource_attributes=client.V1ResourceAttributes(namespace=NS, verb=verb, group=group, resource=resource)))
        return viewer.create_self_subject_access_review(body).status.allowed

    check(can("list", "machinedeployments"), "the viewer lists pools")
    check(not can("patch", "machinedeployments"), "the viewer does not patch pools")
    check(not can("get", "secrets", ""), "the viewer does not read Secrets")
    rules = viewer.create_self_subject_rules_review(client.V1SelfSubjectRulesReview(spec=client.V1SelfSubjectRulesReviewSpec(namespace=NS)))
    check(any("list" in r.verbs for r in rules.status.resource_rules), "rules listed")
    review = client.AuthorizationV1Api(OP).create_subject_access_review(client.V1SubjectAccessReview(spec=client.V1SubjectAccessReviewSpec(
        user="sim-viewer", resource_attributes=client.V1ResourceAttributes(namespace=NS, verb="delete", group=CAPI, resource="machines"))))
    check(review.status.allowed is False, "a SubjectAccessReview for the viewer")
    try:
        client.CoreV1Api(api("sim-viewer")).create_namespaced_config_map(NS, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-denied"}})
        raise AssertionError("the viewer created")
    except ApiException as e:
        check(e.status == 403 and status_of(e)["reason"] == "Forbidden", "403 Forbidden")



def case_impersonation():
    # Impersonate-* headers set on an ApiClient, as its users do (kubectl --as, client-go's
    # ImpersonationConfig): the operator may act as anyone, the request is then that user's.
    as_viewer = api()
    as_viewer.set_default_header("Impersonate-User", "sim-viewer")
    allowed = client.AuthorizationV1Api(as_viewer).create_self_subject_access_review(client.V1SelfSubjectAccessReview(
        spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=client.V1ResourceAttributes(
            namespace=NS, verb="delete", group=CAPI, resource="machinedeployments")))).status.allowed
    check(allowed is False, "the impersonated viewer may not delete pools")
    check(len(client.CustomObjectsApi(as_viewer).list_namespaced_custom_object(CAPI, "v1beta1", NS, "machinedeployments")["items"]) > 0,
          "the impersonated viewer lists pools")
    try:
        client.CoreV1Api(as_viewer).create_namespaced_config_map(NS, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-as-denied"}})
        raise AssertionError("created as the viewer")
    except ApiException as e:
        check(e.status == 403 and 'User "sim-viewer" cannot create resource "configmaps"' in status_of(e)["message"], "403 as the viewer")
    as_group = api()
    as_group.set_default_header("Impersonate-User", "someone")
    as_group.set_default_header("Impersonate-Group", "system:masters")
    # (python3-kubernetes 22 has no SelfSubjectReview: the group shows in what it may do.)
    allowed = client.AuthorizationV1Api(as_group).create_self_subject_access_review(client.V1SelfSubjectAccessReview(
        spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=client.V1ResourceAttributes(
            namespace=NS, verb="delete", group=CAPI, resource="machinedeployments")))).status.allowed
    check(allowed is True, "someone in system:masters may delete pools")
    viewer_as = api("sim-viewer")
    viewer_as.set_default_header("Impersonate-User", "someone")
    try:
        client.CoreV1Api(viewer_as).list_namespaced_config_map(NS)
        raise AssertionError("the viewer impersonated")
    except ApiException as e:
        body = status_of(e)
        check(e.status == 403 and body["message"] == 'users "someone" is forbidden: User "sim-viewer" cannot impersonate resource "users" in API group "" at the cluster scope',
              "impersonation refused: %s" % body["message"])

CASES = [name for name in sorted(globals()) if name.startswith("case_")]

if __name__ == "__main__":
    only = sys.argv[1:]
    for name in CASES:
        short = name[len("case_"):]
        if only and short not in only:
            continue
        try:
            globals()[name]()
            print(json.dumps({"case": short, "ok": True}), flush=True)
        except Exception as e:  # noqa: BLE001 — every failure is reported, the next case runs
            traceback.print_exc()
            print(json.dumps({"case": short, "ok": False, "error": "%s: %s" % (type(e).__name__, e)}), flush=True)
