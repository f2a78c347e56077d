# Ruby's kubeclient (Debian's ruby-kubeclient) against the embedded management cluster, the way
# its users drive a real one: a client per API group and version, whose methods come from
# discovery. One JSON line per case on stdout: {"case", "ok", "error"}.
#
# Run by ../ruby.test.ts with KUBECONFIG (contexts sim-operator and sim-viewer), NAMESPACE and
# WATCH_HISTORY set.
require 'json'
require 'kubeclient'

NS = ENV.fetch('NAMESPACE', 'cpaas-system')
HISTORY = Integer(ENV.fetch('WATCH_HISTORY', '30'))
CONFIG = Kubeclient::Config.read(ENV.fetch('KUBECONFIG'))

def client(path, version, context = 'sim-operator')
  ctx = CONFIG.context(context)
  Kubeclient::Client.new(
    "#{ctx.api_endpoint}#{path}", version,
    ssl_options: ctx.ssl_options, auth_options: ctx.auth_options
  )
end

CORE = client('/api', 'v1')
CAPI = client('/apis/cluster.x-k8s.io', 'v1beta1')
INFRA = client('/apis/infrastructure.cluster.x-k8s.io', 'v1beta1')
RBAC = client('/apis/rbac.authorization.k8s.io', 'v1')

def check(cond, what)
  raise what unless cond
end

def expect_error(code)
  yield
  raise "no #{code} error"
rescue Kubeclient::HttpError => e
  check(e.error_code == code, "#{code} expected, got #{e.error_code}: #{e.message}")
  JSON.parse(e.response.body)
end

def configmap(name, data, owner = nil)
  meta = { name: name, namespace: NS }
  if owner
    meta[:ownerReferences] = [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid }]
  end
  CORE.create_config_map(Kubeclient::Resource.new(metadata: meta, data: data))
end

def wait_gone(name, seconds = 10)
  deadline = Time.now + seconds
  while Time.now < deadline
    begin
      CORE.get_config_map(name, NS)
    rescue Kubeclient::ResourceNotFoundError
      return
    end
    sleep 0.1
  end
  raise "#{name} still there"
end

CASES = {}

CASES['discovery'] = lambda do
  CAPI.discover
  check(CAPI.respond_to?(:get_machine_deployments), 'discovery defines get_machine_deployments')
  check(INFRA.respond_to?(:get_dcsmachine_templates), 'DCS kinds discovered')
  pools = CAPI.get_machine_deployments(namespace: NS)
  check(pools.size.positive?, 'the demo pools')
  check(INFRA.get_dcsip_hostname_pools(namespace: NS).size.positive?, 'the DCS IP pools')
  check(CAPI.api_valid?, 'api_valid? on the group')
end

CASES['paging'] = lambda do
  all = CAPI.get_machine_deployments(namespace: NS).map { |m| m.metadata.name }
  paged = []
  token = nil
  loop do
    page = CAPI.get_machine_deployments(namespace: NS, limit: 2, continue: token)
    paged.concat(page.map { |m| m.metadata.name })
    token = page.continue
    break if token.nil? || token.empty?
  end
  check(paged == all && all.size > 2, "the same pools page by page: #{paged} / #{all}")
end

CASES['watch'] = lambda do
  rv = CORE.get_config_maps(namespace: NS).resourceVersion
  configmap('rb-watched', { 'a' => '1' })
  CORE.patch_config_map('rb-watched', { data: { 'a' => '2' } }, NS)
  types = []
  watcher = CORE.watch_config_maps(namespace: NS, resource_version: rv)
  watcher.each do |notice|
    types << notice.type
    watcher.finish if types.size == 2
  end
  check(types == %w[ADDED MODIFIED], "the changes since the resourceVersion, through /watch/: #{types}")
end

CASES['watch_resume_after_410'] = lambda do
  old = CORE.get_config_maps(namespace: NS).resourceVersion
  configmap('rb-churn', { 'n' => '0' })
  (HISTORY + 5).times { |i| CORE.patch_config_map('rb-churn', { data: { 'n' => i.to_s } }, NS) }
  gone = nil
  begin
    watcher = CORE.watch_config_maps(namespace: NS, resource_version: old)
    watcher.each do |notice|
      gone = notice.object.code if notice.type == 'ERROR'
      watcher.finish
    end
  rescue Kubeclient::HttpError => e
    gone = e.error_code
  end
  check(gone == 410, "410 Gone for a compacted resourceVersion, got #{gone.inspect}")
  fresh = CORE.get_config_maps(namespace: NS).resourceVersion
  CORE.patch_config_map('rb-churn', { data: { 'n' => 'last' } }, NS)
  watcher = CORE.watch_config_maps(namespace: NS, resource_version: fresh)
  watcher.each do |notice|
    check(notice.type == 'MODIFIED' && notice.object.data.n == 'last', 'the change after the new list')
    watcher.finish
  end
end

def owners(obj)
  obj.metadata.managedFields.to_h do |e|
    data = e.fieldsV1.to_h.fetch(:'f:data', {})
    ["#{e.manager}/#{e.operation}", data.keys.map(&:to_s).sort]
  end
end

CASES['server_side_apply'] = lambda do
  # A Hash: kubeclient serializes the applied configuration with to_json.
  cm = ->(data) { { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rb-ssa', namespace: NS }, data: data } }
  CORE.apply_config_map(cm.call('a' => '1', 'b' => '2'), field_manager: 'alice', force: false)
  both = CORE.apply_config_map(cm.call('a' => '1'), field_manager: 'bob', force: false)
  check(owners(both) == { 'alice/Apply' => %w[f:a f:b], 'bob/Apply' => %w[f:a] }, "shared: #{owners(both)}")
  status = expect_error(409) { CORE.apply_config_map(cm.call('b' => '3'), field_manager: 'bob', force: false) }
  check(status['message'] == 'Apply failed with 1 conflict: conflict with "alice": .data.b', status['message'])
  forced = CORE.apply_config_map(cm.call('b' => '3'), field_manager: 'bob') # kubeclient forces by default
  check(forced.data.to_h == { a: '1', b: '3' }, "forced: #{forced.data.to_h}")
  rule = { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }
  role = ->(verbs) { { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'rb-role', namespace: NS }, rules: [rule.merge(verbs: verbs)] } }
  RBAC.apply_role(role.call(['get']), field_manager: 'alice', force: false)
  status = expect_error(409) { RBAC.apply_role(role.call(['list']), field_manager: 'bob', force: false) }
  check(status['message'].include?('.rules'), "an atomic list conflicts as a whole: #{status['message']}")
end

CASES['status_and_scale'] = lambda do
  name = CAPI.get_machine_deployments(namespace: NS).first.metadata.name
  raw = CAPI.rest_client["namespaces/#{NS}/machinedeployments/#{name}/scale"]
  scale = JSON.parse(raw.get(CAPI.headers).body)
  check(scale['kind'] == 'Scale', 'a Scale')
  scale['spec']['replicas'] += 1
  raw.put(scale.to_json, { 'Content-Type' => 'application/json' }.merge(CAPI.headers))
  md = CAPI.get_machine_deployment(name, NS)
  check(md.spec.replicas == scale['spec']['replicas'], 'PUT /scale wrote spec.replicas')
  status = CAPI.rest_client["namespaces/#{NS}/machinedeployments/#{name}/status"]
  after = JSON.parse(status.patch({ status: { phase: 'Failed' } }.to_json, { 'Content-Type' => 'application/merge-patch+json' }.merge(CAPI.headers)).body)
  check(after['status']['phase'] == 'Failed', 'status through /status')
end

CASES['optimistic_concurrency'] = lambda do
  cm = configmap('rb-occ', { 'v' => '1' })
  CORE.patch_config_map('rb-occ', { data: { 'v' => '2' } }, NS)
  cm.data = { 'v' => '3' }
  status = expect_error(409) { CORE.update_config_map(cm) }
  check(status['reason'] == 'Conflict', status['message'])
  fresh = CORE.get_config_map('rb-occ', NS)
  fresh.data = { 'v' => '3' }
  check(CORE.update_config_map(fresh).data.v == '3', 'retried on the latest')
end

CASES['error_status'] = lambda do
  begin
    CAPI.get_machine_deployment('no-such-pool', NS)
    raise 'found'
  rescue Kubeclient::ResourceNotFoundError => e
    body = JSON.parse(e.response.body)
    check(body['kind'] == 'Status' && body['reason'] == 'NotFound', body.to_s)
    check(body['message'] == 'machinedeployments.cluster.x-k8s.io "no-such-pool" not found', body['message'])
  end
  configmap('rb-twice', {})
  status = expect_error(409) { configmap('rb-twice', {}) }
  check(status['reason'] == 'AlreadyExists', status.to_s)
  status = expect_error(422) { configmap('Bad_Name', {}) }
  check(status['details']['causes'][0]['field'] == 'metadata.name', status.to_s)
end

CASES['deletion'] = lambda do
  owner = configmap('rb-fg-owner', {})
  configmap('rb-fg-child', {}, owner)
  CORE.delete_config_map('rb-fg-owner', NS, delete_options: { propagationPolicy: 'Foreground' })
  wait_gone('rb-fg-child')
  wait_gone('rb-fg-owner')
  owner = configmap('rb-bg-owner', {})
  configmap('rb-bg-child', {}, owner)
  CORE.delete_config_map('rb-bg-owner', NS, delete_options: { propagationPolicy: 'Background' })
  wait_gone('rb-bg-owner', 1)
  wait_gone('rb-bg-child')
end

CASES['access_reviews'] = lambda do
  authz = client('/apis/authorization.k8s.io', 'v1', 'sim-viewer')
  can = lambda do |verb, resource, group = 'cluster.x-k8s.io'|
    review = Kubeclient::Resource.new(metadata: {}, spec: { resourceAttributes: { namespace: NS, verb: verb, group: group, resource: resource } })
    authz.create_self_subject_access_review(review).status.allowed
  end
  check(can.call('list', 'machinedeployments'), 'the viewer lists pools')
  check(!can.call('delete', 'machinedeployments'), 'the viewer does not delete pools')
  check(!can.call('get', 'secrets', ''), 'the viewer does not read Secrets')
  viewer = client('/api', 'v1', 'sim-viewer')
  status = expect_error(403) { viewer.create_config_map(Kubeclient::Resource.new(metadata: { name: 'rb-no', namespace: NS })) }
  check(status['reason'] == 'Forbidden', status.to_s)
end

only = ARGV
CASES.each do |name, run|
  next unless only.empty? || only.include?(name)

  begin
    run.call
    puts({ case: name, ok: true }.to_json)
  rescue StandardError => e
    warn "#{name}: #{e.class}: #{e.message}\n#{e.backtrace.first(8).join("\n")}"
    puts({ case: name, ok: false, error: "#{e.class}: #{e.message}" }.to_json)
  end
  $stdout.flush
end
