// The bench appliance: a mid-size site (a head office with seven interfaces, ~240 rules, ~80 aliases, ~160 DHCP
// static mappings, ~300 leases, ~800 states), planted in the simulator with --data. The simulator's own demo
// appliance is a small office whose collections hold a handful of rows each; questions over it are reported too.
// Deterministic: the same rows on every run. Rows carry the fields a pfSense of that size fills in.

type Row = Record<string, unknown>;

const INTERFACES = ['WAN', 'WAN2', 'LAN', 'DMZ', 'STAFF', 'GUEST', 'IOT'] as const;
const PROTOCOLS = ['tcp', 'udp', 'tcp/udp', null, 'icmp'] as const;
const PORTS = ['443', '80', '53', '22', '25', '123', '3389', '5432', '8080', '1194', null] as const;
const at = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
const unix = (i: number): number => 1_760_000_000 + i * 3_600;
const author = (i: number): string => `${at(['admin', 'alice', 'bob'], i)}@10.10.20.${50 + (i % 3)} (Local Database)`;

function rules(): Row[] {
  return Array.from({ length: 240 }, (_, i) => ({
    type: i % 11 === 0 ? 'block' : i % 17 === 0 ? 'reject' : 'pass',
    interface: [at(INTERFACES, Math.floor(i / 5))],
    ipprotocol: i % 9 === 0 ? 'inet6' : 'inet',
    protocol: at(PROTOCOLS, i),
    icmptype: ['any'],
    source: at(['any', 'lan', 'opt1', 'OFFICE_NETS', `10.10.${i % 60}.0/24`], i),
    source_port: null,
    destination: at(['any', 'self', 'wan:ip', 'LAN_SERVERS', `10.20.${i % 40}.${i % 250}`], i + 1),
    destination_port: at(PORTS, i + 1),
    descr: `${at(['Allow', 'Permit', 'Deny', 'Pass'], i)} ${at(['web', 'mail', 'DNS', 'SSH', 'backup', 'VoIP', 'printing', 'updates'], i)} for ${at(['staff', 'servers', 'guests', 'cameras', 'VPN users'], i)} #${i}`,
    disabled: i % 23 === 0,
    log: i % 4 === 0,
    statetype: 'keep state',
    tcp_flags_any: false,
    tcp_flags_out_of: [],
    tcp_flags_set: [],
    gateway: i % 19 === 0 ? 'WAN_FAILOVER' : null,
    sched: i % 29 === 0 ? 'OfficeHours' : null,
    floating: false,
    quick: true,
    direction: null,
    tracker: 1_700_000_000 + i,
    associated_rule_id: null,
    created_time: unix(i),
    created_by: author(i),
    updated_time: unix(i + 500),
    updated_by: author(i + 1),
  }));
}

function aliases(): Row[] {
  const types = ['host', 'network', 'port', 'host', 'url'] as const;
  return Array.from({ length: 80 }, (_, i) => {
    const type = at(types, i);
    const n = 3 + (i % 8);
    const address = Array.from({ length: n }, (__, k) =>
      type === 'host'
        ? `10.${i % 40}.${k}.${10 + k}`
        : type === 'network'
          ? `10.${100 + (i % 50)}.${k}.0/24`
          : type === 'port'
            ? String(1000 + i * 10 + k)
            : `https://lists.example.net/${i}/${k}.txt`,
    );
    return {
      name: `${type.toUpperCase()}_${i}`,
      type,
      descr: `${type} group ${i} maintained by the network team`,
      address,
      detail: address.map((_a, k) => `Entry ${k} added by ${author(i + k)}`),
    };
  });
}

function staticMappings(): Row[] {
  const parents = ['lan', 'opt2', 'opt4', 'opt5'] as const;
  const nets: Readonly<Record<string, string>> = { lan: '10.10.10', opt2: '10.10.20', opt4: '10.10.50', opt5: '10.10.60' };
  return Array.from({ length: 160 }, (_, i) => {
    const parent = at(parents, i);
    // Child-model ids are pfrest's index within the parent, stored with the record.
    return {
      id: Math.floor(i / parents.length),
      parent_id: parent,
      mac: `00:1b:21:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}:0a`,
      ipaddr: `${nets[parent] as string}.${20 + Math.floor(i / 4)}`,
      cid: '',
      hostname: `${at(['pc', 'printer', 'phone', 'camera', 'ap'], i)}-${i}`,
      domain: 'office.example',
      domainsearchlist: [],
      defaultleasetime: null,
      maxleasetime: null,
      gateway: '',
      dnsserver: [],
      winsserver: [],
      ntpserver: [],
      arp_table_static_entry: i % 6 === 0,
      descr: `Reserved for ${at(['finance', 'sales', 'support', 'engineering', 'facilities'], i)} device ${i}`,
    };
  });
}

function services(): Row[] {
  const names = ['unbound', 'dhcpd', 'dpinger', 'ntpd', 'openvpn', 'ipsec', 'wireguard', 'sshd', 'syslogd', 'radvd', 'haproxy', 'snort'];
  return Array.from({ length: 36 }, (_, i) => ({
    name: `${at(names, i)}${i < names.length ? '' : `_${i}`}`,
    description: `${at(names, i)} service instance ${i}`,
    enabled: i % 13 !== 5,
    status: i % 12 !== 7,
    action: 'restart',
  }));
}

function portForwards(): Row[] {
  return Array.from({ length: 24 }, (_, i) => ({
    interface: i % 3 === 2 ? 'WAN2' : 'WAN',
    ipprotocol: 'inet',
    protocol: at(['tcp', 'udp', 'tcp/udp', 'tcp'], i),
    source: 'any',
    source_port: null,
    destination: 'wan:ip',
    destination_port: String(8000 + i),
    target: `10.10.40.${20 + i}`,
    local_port: at(['443', '80', '22', '3389'], i),
    disabled: i % 10 === 9,
    nordr: false,
    nosync: false,
    descr: `Publish ${at(['web', 'mail', 'jump host', 'remote desktop'], i)} ${i}`,
    natreflection: 'enable',
    associated_rule_id: `nat_${i}`,
    created_time: unix(i),
    created_by: author(i),
    updated_time: unix(i + 10),
    updated_by: author(i),
  }));
}

function gateways(): Row[] {
  return Array.from({ length: 8 }, (_, i) => ({
    name: `GW_${at(['WAN', 'WAN2', 'LTE', 'MPLS'], i)}_${i}`,
    srcip: `203.0.113.${10 + i}`,
    monitorip: `198.51.100.${i + 1}`,
    delay: 5 + i * 3.5,
    stddev: 0.5 + i / 10,
    loss: i === 5 ? 100 : i === 6 ? 12 : 0,
    status: i === 5 ? 'down' : i === 6 ? 'loss' : 'online',
    substatus: i === 6 ? 'highloss' : 'none',
  }));
}

function leases(): Row[] {
  return Array.from({ length: 300 }, (_, i) => ({
    ip: `10.10.${at([10, 20, 30, 50], i)}.${100 + (i % 150)}`,
    mac: `3c:22:fb:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}:01`,
    hostname: `${at(['laptop', 'phone', 'tablet', 'tv', 'sensor'], i)}-${i}`,
    if: at(['LAN', 'STAFF', 'GUEST', 'IOT'], i),
    starts: 'Thu, 15 Jan 2026 08:00:00 +0000',
    ends: 'Thu, 15 Jan 2026 10:00:00 +0000',
    active_status: 'active',
    online_status: i % 10 === 3 ? 'idle/offline' : 'active/online',
    descr: '',
  }));
}

function states(): Row[] {
  return Array.from({ length: 800 }, (_, i) => {
    const protocol = i % 7 === 0 ? 'icmp' : i % 3 === 0 ? 'udp' : 'tcp';
    return {
      interface: 'WAN',
      protocol,
      direction: 'out',
      source: `10.10.${at([10, 20, 30], i)}.${100 + (i % 100)}:${49152 + i}`,
      destination: `${at(['142.250.74', '151.101.1', '104.16.132'], i)}.${1 + (i % 254)}:${protocol === 'udp' ? 53 : 443}`,
      state: protocol === 'tcp' ? 'ESTABLISHED:ESTABLISHED' : 'MULTIPLE:MULTIPLE',
      age: `00:${String(i % 60).padStart(2, '0')}:00`,
      expires_in: `${i % 24}:00:00`,
      packets_total: 10 + ((i * 37) % 5000),
      packets_in: 5 + ((i * 17) % 2500),
      packets_out: 5 + ((i * 19) % 2500),
      bytes_total: (10 + ((i * 37) % 5000)) * 600,
      bytes_in: (5 + ((i * 17) % 2500)) * 900,
      bytes_out: (5 + ((i * 19) % 2500)) * 300,
    };
  });
}

/** The --data payload of the bench appliance (the paths the questions read; every other path keeps its demo data). */
export function benchAppliance(): Readonly<Record<string, readonly Row[]>> {
  return {
    '/api/v2/firewall/rules': rules(),
    '/api/v2/firewall/aliases': aliases(),
    '/api/v2/services/dhcp_server/static_mappings': staticMappings(),
    '/api/v2/status/services': services(),
    '/api/v2/firewall/nat/port_forwards': portForwards(),
    '/api/v2/status/gateways': gateways(),
    '/api/v2/status/dhcp_server/leases': leases(),
    '/api/v2/firewall/states': states(),
  };
}
