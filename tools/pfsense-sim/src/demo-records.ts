// The hand-written part of the demo appliance, a small office behind a Netgate 4200: WAN (DHCP from the
// ISP), LAN, a DMZ, staff and guest VLANs, two gateways, ~20 rules, NAT, aliases, DHCP, DNS, IPsec to a
// branch, OpenVPN and WireGuard road warriors, certificates, users and packages. Objects are partial; the
// model shaper fills every other field with its model default. Secret fields (private keys, password
// hashes, PSKs) ARE seeded so that tests can prove they never leave the simulator.
import type { JsonObject } from './model-shaper.js';
import type { SeededRandom } from './seeded-random.js';

/** Demo timestamps hang off a fixed instant so that the same seed always yields the same appliance. */
const BASE = Date.UTC(2026, 0, 15, 9, 0, 0);
const unix = (hoursAgo: number): number => Math.floor((BASE - hoursAgo * 3_600_000) / 1000);
const rfc = (hoursAgo: number): string => new Date(BASE - hoursAgo * 3_600_000).toUTCString().replace('GMT', '+0000');

function pem(kind: string, rnd: SeededRandom, bytes: number): string {
  const body = rnd.base64(bytes).replace(/(.{64})/g, '$1\n');
  return Buffer.from(`-----BEGIN ${kind}-----\n${body}\n-----END ${kind}-----\n`).toString('base64');
}

function wgKey(rnd: SeededRandom): string {
  return rnd.base64(32);
}

export function demoRecords(rnd: SeededRandom): Record<string, JsonObject | JsonObject[]> {
  const wanIp = `203.0.113.${rnd.int(10, 200)}`;
  const wanGw = '203.0.113.1';
  const lanMacPrefix = '00:08:a2';
  const netgateId = rnd.hex(16);
  const hostid = rnd.hex(4);
  const caRef = rnd.hex(6);
  const webCertRef = rnd.hex(6);
  const vpnCertRef = rnd.hex(6);
  const userCertRef = rnd.hex(6);
  const ifaces = [
    { id: 'wan', if: 'igc0', descr: 'WAN', typev4: 'dhcp', ipaddr: 'dhcp', subnet: null, gateway: null, typev6: 'dhcp6', ipaddrv6: 'dhcp6', blockpriv: true, blockbogons: true, mac: rnd.mac(lanMacPrefix) },
    { id: 'lan', if: 'igc1', descr: 'LAN', typev4: 'static', ipaddr: '10.10.10.1', subnet: 24, typev6: 'track6', track6_interface: 'WAN', mac: rnd.mac(lanMacPrefix) },
    { id: 'opt1', if: 'igc2', descr: 'DMZ', typev4: 'static', ipaddr: '10.10.40.1', subnet: 24, typev6: 'none', mac: rnd.mac(lanMacPrefix) },
    { id: 'opt2', if: 'igc1.20', descr: 'STAFF', typev4: 'static', ipaddr: '10.10.20.1', subnet: 24, typev6: 'none', mac: rnd.mac(lanMacPrefix) },
    { id: 'opt3', if: 'igc1.30', descr: 'GUEST', typev4: 'static', ipaddr: '10.10.30.1', subnet: 24, typev6: 'none', mac: rnd.mac(lanMacPrefix) },
  ];
  const staticMaps: Record<string, JsonObject[]> = {
    lan: [
      { mac: rnd.mac(lanMacPrefix), ipaddr: '10.10.10.10', hostname: 'nas', descr: 'Synology NAS', arp_table_static_entry: true },
      { mac: rnd.mac('3c:22:fb'), ipaddr: '10.10.10.11', hostname: 'print', descr: 'Print server' },
      { mac: rnd.mac('b8:27:eb'), ipaddr: '10.10.10.12', hostname: 'pihole', descr: 'Spare DNS' },
    ],
    opt2: [
      { mac: rnd.mac('f0:18:98'), ipaddr: '10.10.20.50', hostname: 'alice-laptop', descr: 'Alice (admin)' },
      { mac: rnd.mac('a4:83:e7'), ipaddr: '10.10.20.51', hostname: 'bob-desktop', descr: 'Bob (admin)' },
    ],
    opt3: [],
  };
  const dhcpServers = [
    { id: 'lan', interface: 'LAN', enable: true, range_from: '10.10.10.100', range_to: '10.10.10.199', domain: 'office.example', dnsserver: ['10.10.10.1'], defaultleasetime: 7200, maxleasetime: 86400 },
    { id: 'opt2', interface: 'STAFF', enable: true, range_from: '10.10.20.100', range_to: '10.10.20.199', domain: 'staff.office.example', dnsserver: ['10.10.20.1'] },
    { id: 'opt3', interface: 'GUEST', enable: true, range_from: '10.10.30.10', range_to: '10.10.30.250', dnsserver: ['9.9.9.9', '149.112.112.112'], defaultleasetime: 3600 },
  ];
  const pools: Record<string, JsonObject[]> = { lan: [{ range_from: '10.10.10.200', range_to: '10.10.10.219', domain: 'iot.office.example' }], opt2: [], opt3: [] };
  const customOptions: Record<string, JsonObject[]> = { lan: [{ number: 42, type: 'ip-address', value: Buffer.from('10.10.10.1').toString('base64') }], opt2: [], opt3: [] };
  const hosts = ['alice-phone', 'bob-phone', 'meeting-room-tv', 'reception-pc', 'carol-laptop', 'dave-laptop', 'printer-2f', 'voip-101', 'voip-102', 'camera-door', 'guest-ipad', 'guest-android'];
  const leases = hosts.map((hostname, i) => {
    const net = i < 8 ? 10 : i < 10 ? 20 : 30;
    return {
      ip: `10.10.${net}.${100 + i}`, mac: rnd.mac(), hostname, if: net === 10 ? 'LAN' : net === 20 ? 'STAFF' : 'GUEST',
      starts: rfc(rnd.int(1, 6)), ends: rfc(-rnd.int(1, 2)), active_status: 'active', online_status: i % 5 === 4 ? 'idle/offline' : 'active/online', descr: '',
    };
  });
  const rule = (r: JsonObject, i: number): JsonObject => ({
    ipprotocol: 'inet', statetype: 'keep state', tracker: 1_700_000_000 + i, created_time: unix(2000 - i), created_by: 'admin@10.10.20.50 (Local Database)',
    updated_time: unix(500 - i), updated_by: 'admin@10.10.20.50 (Local Database)', ...r,
  });
  const rules = [
    { type: 'block', interface: ['WAN'], source: 'BLOCKLIST', destination: 'any', descr: 'Drop known bad networks', log: true, quick: true },
    { type: 'pass', interface: ['WAN'], protocol: 'tcp', source: 'any', destination: '10.10.40.20', destination_port: '443', descr: 'NAT Web server HTTPS', associated_rule_id: 'nat_0' },
    { type: 'pass', interface: ['WAN'], protocol: 'udp', source: 'any', destination: 'wan:ip', destination_port: '1194', descr: 'OpenVPN road warriors' },
    { type: 'pass', interface: ['WAN'], protocol: 'udp', source: 'any', destination: 'wan:ip', destination_port: '51820', descr: 'WireGuard' },
    { type: 'pass', interface: ['WAN'], protocol: 'udp', source: '198.51.100.7', destination: 'wan:ip', destination_port: '500', descr: 'IPsec IKE from branch' },
    { type: 'pass', interface: ['WAN'], protocol: 'esp', source: '198.51.100.7', destination: 'wan:ip', descr: 'IPsec ESP from branch' },
    { type: 'pass', interface: ['LAN'], source: 'lan', destination: 'any', descr: 'Default allow LAN to any rule' },
    { type: 'pass', interface: ['LAN'], ipprotocol: 'inet6', source: 'lan', destination: 'any', descr: 'Default allow LAN IPv6 to any rule' },
    { type: 'pass', interface: ['STAFF'], protocol: 'tcp', source: 'MGMT_HOSTS', destination: 'self', destination_port: '443', descr: 'Admin GUI from admin hosts', log: true },
    { type: 'block', interface: ['STAFF'], source: 'opt2', destination: 'self', descr: 'No other firewall access from staff' },
    { type: 'pass', interface: ['STAFF'], source: 'opt2', destination: 'any', descr: 'Staff to anywhere' },
    { type: 'pass', interface: ['GUEST'], protocol: 'tcp/udp', source: 'opt3', destination: 'self', destination_port: '53', descr: 'Guest DNS' },
    { type: 'block', interface: ['GUEST'], source: 'opt3', destination: 'OFFICE_NETS', descr: 'Isolate guests from office networks', log: true },
    { type: 'pass', interface: ['GUEST'], protocol: 'tcp', source: 'opt3', destination: 'any', destination_port: 'WEB_PORTS', descr: 'Guest web only', sched: 'OfficeHours' },
    { type: 'reject', interface: ['GUEST'], source: 'opt3', destination: 'any', descr: 'Reject the rest from guests' },
    { type: 'pass', interface: ['DMZ'], protocol: 'tcp', source: 'opt1', destination: 'any', destination_port: 'WEB_PORTS', descr: 'DMZ updates' },
    { type: 'pass', interface: ['DMZ'], protocol: 'tcp', source: '10.10.40.20', destination: 'LAN_SERVERS', destination_port: '5432', descr: 'Web to database', disabled: true },
    { type: 'block', interface: ['DMZ'], source: 'opt1', destination: 'OFFICE_NETS', descr: 'DMZ may not reach the office', log: true },
    { type: 'pass', interface: ['WAN', 'LAN'], floating: true, direction: 'out', protocol: 'icmp', icmptype: ['echoreq'], source: 'any', destination: 'any', descr: 'Floating: outbound ping', quick: false },
    { type: 'pass', interface: ['LAN'], protocol: 'tcp', source: 'lan', destination: 'any', destination_port: '25', descr: 'Mail relay via failover group', gateway: 'WAN_FAILOVER' },
  ].map(rule);
  const services = [
    ['unbound', 'DNS Resolver', true, true], ['dhcpd', 'DHCP Service', true, true], ['dpinger', 'Gateway Monitoring Daemon', true, true],
    ['ntpd', 'NTP clock sync', true, true], ['openvpn', 'OpenVPN server: Road warriors', true, true], ['ipsec', 'IPsec VPN', true, true],
    ['wireguard', 'WireGuard', true, true], ['sshd', 'Secure Shell Daemon', true, true], ['syslogd', 'System Logger Daemon', true, true],
    ['radvd', 'Router Advertisement Daemon', true, true], ['acme', 'ACME certificates', false, false], ['named', 'BIND domain name service', false, false],
  ].map(([name, description, enabled, status]) => ({ name, description, enabled, status, action: 'restart' }));
  const stateProtos = ['tcp', 'udp', 'icmp'];
  const states = Array.from({ length: 140 }, (_, i) => {
    const proto = stateProtos[i % 7 === 0 ? 2 : i % 3 === 0 ? 1 : 0] ?? 'tcp';
    const src = `10.10.${rnd.pick([10, 20, 30])}.${rnd.int(100, 199)}`;
    const sport = rnd.int(49152, 65535);
    const dst = `${rnd.pick(['142.250.74', '151.101.1', '104.16.132', '13.107.42', '9.9.9'])}.${rnd.int(1, 254)}`;
    const dport = proto === 'icmp' ? 0 : rnd.pick([443, 443, 443, 80, 53, 123, 993]);
    const packetsIn = rnd.int(1, 5000);
    const packetsOut = rnd.int(1, 5000);
    return {
      interface: 'WAN', protocol: proto, direction: 'out',
      source: proto === 'icmp' ? `${wanIp}:${rnd.int(1000, 60000)}` : `${src}:${sport}`,
      destination: proto === 'icmp' ? dst : `${dst}:${dport}`,
      state: proto === 'tcp' ? 'ESTABLISHED:ESTABLISHED' : proto === 'udp' ? 'MULTIPLE:MULTIPLE' : '0:0',
      age: `00:${String(rnd.int(0, 59)).padStart(2, '0')}:${String(rnd.int(0, 59)).padStart(2, '0')}`,
      expires_in: `${rnd.int(0, 23)}:${String(rnd.int(0, 59)).padStart(2, '0')}:00`,
      packets_total: packetsIn + packetsOut, packets_in: packetsIn, packets_out: packetsOut,
      bytes_total: (packetsIn + packetsOut) * 600, bytes_in: packetsIn * 900, bytes_out: packetsOut * 300,
    };
  });
  const phase1 = {
    ikeid: 1, descr: 'Branch office', iketype: 'ikev2', protocol: 'inet', interface: 'WAN', remote_gateway: '198.51.100.7',
    authentication_method: 'pre_shared_key', myid_type: 'myaddress', peerid_type: 'peeraddress', pre_shared_key: `psk-${rnd.hex(16)}`,
    lifetime: 28800, rekey_time: 25920, startaction: 'start', nat_traversal: 'on', mobike: false, dpd_delay: 10, dpd_maxfail: 5, ikeport: '500', nattport: '4500',
    encryption: [{ encryption_algorithm_name: 'aes', encryption_algorithm_keylen: 256, hash_algorithm: 'sha256', dhgroup: 14, prf_algorithm: 'sha256' }],
  };
  const childSa = {
    name: 'con1', uniqueid: 2, reqid: 1, state: 'INSTALLED', mode: 'TUNNEL', protocol: 'ESP', encap: false, spi_in: rnd.hex(4), spi_out: rnd.hex(4),
    encr_alg: 'AES_GCM_16', encr_keysize: 256, integ_alg: '', dh_group: 'MODP_2048', bytes_in: rnd.int(1e6, 1e9), bytes_out: rnd.int(1e6, 1e9),
    packets_in: rnd.int(1e4, 1e6), packets_out: rnd.int(1e4, 1e6), use_in: 3, use_out: 3, rekey_time: 2900, life_time: 3400, install_time: 200,
    local_ts: ['10.10.10.0/24'], remote_ts: ['10.20.0.0/24'],
  };
  const ovpnConns = [
    { common_name: 'carol', remote_host: `198.51.100.${rnd.int(20, 90)}:${rnd.int(40000, 60000)}`, virtual_addr: '10.8.0.2', virtual_addr6: '', bytes_recv: rnd.int(1e5, 1e8), bytes_sent: rnd.int(1e5, 1e8), connect_time: rfc(3), connect_time_unix: unix(3), user_name: 'carol', client_id: 0, peer_id: 0, cipher: 'AES-256-GCM' },
    { common_name: 'dave', remote_host: `192.0.2.${rnd.int(20, 90)}:${rnd.int(40000, 60000)}`, virtual_addr: '10.8.0.3', virtual_addr6: '', bytes_recv: rnd.int(1e5, 1e8), bytes_sent: rnd.int(1e5, 1e8), connect_time: rfc(1), connect_time_unix: unix(1), user_name: 'dave', client_id: 1, peer_id: 1, cipher: 'AES-256-GCM' },
  ];
  const ovpnRoutes = ovpnConns.map((c) => ({ common_name: c.common_name, remote_host: c.remote_host, virtual_addr: c.virtual_addr, last_time: c.connect_time }));
  const wgPeers = [
    { tunnel_device: 'tun_wg0', public_key: wgKey(rnd), preshared_key: wgKey(rnd), endpoint: `198.51.100.${rnd.int(100, 200)}:${rnd.int(40000, 60000)}`, allowed_ips: ['10.9.0.2/32'], latest_handshake: unix(0.05), transfer_rx: rnd.int(1e5, 1e8), transfer_tx: rnd.int(1e5, 1e8), persistent_keepalive: '25', descr: 'Erin laptop' },
    { tunnel_device: 'tun_wg0', public_key: wgKey(rnd), preshared_key: wgKey(rnd), endpoint: '(none)', allowed_ips: ['10.9.0.3/32'], latest_handshake: 0, transfer_rx: 0, transfer_tx: 0, persistent_keepalive: 'off', descr: 'Frank phone' },
  ];
  const revisions = ['Added alias BLOCKLIST', 'Edited firewall rule Guest web only', 'DHCP static mapping nas', 'OpenVPN server Road warriors', 'Installed package pfSense-pkg-WireGuard', 'User carol created', 'Changed NTP servers', 'REST API settings saved'];

  return {
    '/api/v2/firewall/aliases': [
      { name: 'LAN_SERVERS', type: 'host', descr: 'Servers in the LAN closet', address: ['10.10.10.10', '10.10.10.11', '10.10.10.12'], detail: [`Entry added ${rfc(2000)}`, 'NAS', 'Print server'] },
      { name: 'OFFICE_NETS', type: 'network', descr: 'All office networks', address: ['10.10.10.0/24', '10.10.20.0/24', '10.10.30.0/24'], detail: ['LAN', 'Staff VLAN', 'Guest VLAN'] },
      { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
      { name: 'MGMT_HOSTS', type: 'host', descr: 'Admin workstations', address: ['10.10.20.50', '10.10.20.51'], detail: ['alice-laptop', 'bob-desktop'] },
      { name: 'BLOCKLIST', type: 'network', descr: 'Known bad networks', address: ['198.51.100.128/25', '192.0.2.0/24'], detail: [`Entry added ${rfc(700)}`, `Entry added ${rfc(300)}`] },
      { name: 'VPN_PORTS', type: 'port', descr: 'Remote access VPN ports', address: ['1194', '51820', '500', '4500'], detail: ['OpenVPN', 'WireGuard', 'IKE', 'NAT-T'] },
    ],
    '/api/v2/firewall/rules': rules,
    '/api/v2/firewall/nat/port_forwards': [
      { interface: 'WAN', ipprotocol: 'inet', protocol: 'tcp', source: 'any', destination: 'wan:ip', destination_port: '443', target: '10.10.40.20', local_port: '443', descr: 'Web server HTTPS', natreflection: 'enable', associated_rule_id: 'nat_0', created_time: unix(1800), created_by: 'admin@10.10.20.50 (Local Database)' },
      { interface: 'WAN', ipprotocol: 'inet', protocol: 'tcp', source: '198.51.100.7', destination: 'wan:ip', destination_port: '2222', target: '10.10.40.21', local_port: '22', descr: 'Branch SSH to DMZ jump host', disabled: true, created_time: unix(900), created_by: 'admin@10.10.20.50 (Local Database)' },
    ],
    '/api/v2/firewall/nat/outbound/mode': { mode: 'hybrid' },
    '/api/v2/firewall/nat/outbound/mappings': [
      { interface: 'WAN', protocol: null, source: '10.10.40.0/24', destination: 'any', target: wanIp, descr: 'DMZ via WAN address', poolopts: 'round-robin', source_hash_key: `0x${rnd.hex(16)}` },
      { interface: 'WAN', protocol: null, source: '10.8.0.0/24', destination: 'any', target: 'wan:ip', descr: 'OpenVPN clients out', nonat: false },
    ],
    '/api/v2/firewall/nat/one_to_one/mappings': [
      { interface: 'WAN', ipprotocol: 'inet', external: '203.0.113.250', source: '10.10.40.30', destination: 'any', descr: 'Mail gateway 1:1', natreflection: 'enable' },
    ],
    '/api/v2/firewall/schedules': [
      { schedlabel: rnd.hex(7), name: 'OfficeHours', descr: 'Weekdays 07:00-19:00', active: true, timerange: [{ position: [1, 2, 3, 4, 5], hour: '7:00-19:00', rangedescr: 'Mon-Fri' }] },
      { schedlabel: rnd.hex(7), name: 'Maintenance', descr: 'Sunday night window', active: false, timerange: [{ position: [7], hour: '1:00-4:00', rangedescr: 'Sun' }] },
    ],
    '/api/v2/firewall/states': states,
    '/api/v2/firewall/states/size': { maximumstates: 400000, defaultmaximumstates: 400000, currentstates: states.length },
    '/api/v2/firewall/advanced_settings': { aliasesresolveinterval: 300, checkaliasesurlcert: true },
    '/api/v2/firewall/traffic_shapers': [
      { enabled: true, interface: 'WAN', name: 'WAN', scheduler: 'FAIRQ', bandwidthtype: 'Mb', bandwidth: 500, qlimit: 500, queue: [{ interface: 'WAN', enabled: true, name: 'qVoIP', priority: 7, bandwidth: 10, bandwidthtype: 'Mb' }, { interface: 'WAN', enabled: true, name: 'qDefault', priority: 3, default: true }] },
    ],
    '/api/v2/firewall/traffic_shaper/limiters': [
      { name: 'GuestDown', number: 1, enabled: true, mask: 'dstaddress', maskbits: 32, description: 'Per-guest download cap', aqm: 'droptail', sched: 'fq_codel', bandwidth: [{ bw: 20, bwscale: 'Mb' }], queue: [] },
      { name: 'GuestUp', number: 2, enabled: true, mask: 'srcaddress', maskbits: 32, description: 'Per-guest upload cap', aqm: 'droptail', sched: 'fq_codel', bandwidth: [{ bw: 5, bwscale: 'Mb' }], queue: [] },
    ],
    '/api/v2/firewall/virtual_ips': [
      { uniqid: rnd.hex(7), mode: 'carp', interface: 'LAN', type: 'single', subnet: '10.10.10.254', subnet_bits: 24, descr: 'LAN CARP VIP', vhid: 1, advbase: 1, advskew: 0, password: `carp-${rnd.hex(10)}`, carp_status: 'MASTER', carp_mode: 'mcast' },
      { uniqid: rnd.hex(7), mode: 'ipalias', interface: 'WAN', type: 'single', subnet: '203.0.113.250', subnet_bits: 32, descr: 'Mail gateway public IP' },
    ],
    '/api/v2/firewall/virtual_ip/apply': { applied: true },
    '/api/v2/interfaces': ifaces.map(({ mac: _mac, ...i }) => ({ enable: true, mtu: null, ...i, gateway: i.id === 'wan' ? 'WAN_DHCP' : '' })),
    '/api/v2/interface/apply': { applied: true, pending_interfaces: [] },
    '/api/v2/interface/available_interfaces': ['igc0', 'igc1', 'igc2', 'igc3'].map((name, i) => ({
      if: name, mac: ifaces[i]?.mac ?? rnd.mac(lanMacPrefix), dmesg: 'Intel(R) Ethernet Controller I226-V', in_use_by: ifaces[i]?.id ?? '',
    })),
    '/api/v2/interface/vlans': [
      { if: 'igc1', tag: 20, vlanif: 'igc1.20', pcp: null, descr: 'Staff VLAN' },
      { if: 'igc1', tag: 30, vlanif: 'igc1.30', pcp: null, descr: 'Guest VLAN' },
    ],
    '/api/v2/interface/bridges': [],
    '/api/v2/interface/gres': [],
    '/api/v2/interface/laggs': [],
    '/api/v2/interface/groups': [{ ifname: 'INTERNAL', members: ['LAN', 'STAFF'], descr: 'Trusted internal networks' }],
    '/api/v2/routing/gateways': [
      { name: 'WAN_DHCP', descr: 'Interface WAN_DHCP Gateway', ipprotocol: 'inet', interface: 'WAN', gateway: 'dynamic', monitor: '9.9.9.9', weight: 1, latencylow: 200, latencyhigh: 500, losslow: 10, losshigh: 20, interval: 500, loss_interval: 2000, time_period: 60000, alert_interval: 1000, data_payload: 1 },
      { name: 'WAN_DHCP6', descr: 'Interface WAN_DHCP6 Gateway', ipprotocol: 'inet6', interface: 'WAN', gateway: 'dynamic', monitor: '2620:fe::fe', weight: 1, latencylow: 200, latencyhigh: 500, losslow: 10, losshigh: 20, interval: 500, loss_interval: 2000, time_period: 60000, alert_interval: 1000, data_payload: 1 },
      { name: 'LTE_BACKUP', descr: 'LTE router in the DMZ', ipprotocol: 'inet', interface: 'DMZ', gateway: '10.10.40.254', monitor: '1.1.1.1', weight: 1, latencylow: 300, latencyhigh: 800, losslow: 10, losshigh: 20, interval: 1000, loss_interval: 2000, time_period: 60000, alert_interval: 1000, data_payload: 1 },
    ],
    '/api/v2/routing/gateway/groups': [
      { name: 'WAN_FAILOVER', trigger: 'downlosslatency', descr: 'Fibre first, LTE when it fails', ipprotocol: 'inet', priorities: [{ gateway: 'WAN_DHCP', tier: 1, virtual_ip: 'address' }, { gateway: 'LTE_BACKUP', tier: 2, virtual_ip: 'address' }] },
    ],
    '/api/v2/routing/gateway/default': { defaultgw4: 'WAN_DHCP', defaultgw6: 'WAN_DHCP6' },
    '/api/v2/routing/static_routes': [
      { network: '10.50.0.0/24', gateway: 'LTE_BACKUP', descr: 'Management network of the LTE router', disabled: false },
    ],
    '/api/v2/routing/apply': { applied: true },
    '/api/v2/status/gateways': [
      { name: 'WAN_DHCP', srcip: wanIp, monitorip: '9.9.9.9', delay: 8.4, stddev: 0.9, loss: 0, status: 'online', substatus: 'none' },
      { name: 'WAN_DHCP6', srcip: '2001:db8:1::2', monitorip: '2620:fe::fe', delay: 9.1, stddev: 1.2, loss: 0, status: 'online', substatus: 'none' },
      { name: 'LTE_BACKUP', srcip: '10.10.40.1', monitorip: '1.1.1.1', delay: 48.7, stddev: 6.3, loss: 2, status: 'online', substatus: 'highloss' },
    ],
    '/api/v2/status/interfaces': ifaces.map((i) => ({
      name: i.id, descr: i.descr, hwif: i.if, macaddr: i.mac, mtu: '1500', enable: true, status: 'up',
      ipaddr: i.id === 'wan' ? wanIp : i.ipaddr, subnet: i.id === 'wan' ? '24' : String(i.subnet), linklocal: `fe80::208:a2ff:fe${rnd.hex(1)}:${rnd.hex(2)}%${i.if}`,
      ipaddrv6: i.id === 'wan' ? '2001:db8:1::2' : i.id === 'lan' ? '2001:db8:2::1' : '', subnetv6: i.id === 'wan' ? '64' : i.id === 'lan' ? '64' : '',
      inerrs: 0, outerrs: 0, collisions: 0, inbytes: rnd.int(1e8, 1e11), inbytespass: rnd.int(1e8, 1e11), outbytes: rnd.int(1e8, 1e11), outbytespass: rnd.int(1e8, 1e11),
      inpkts: rnd.int(1e6, 1e8), inpktspass: rnd.int(1e6, 1e8), outpkts: rnd.int(1e6, 1e8), outpktspass: rnd.int(1e6, 1e8),
      dhcplink: i.id === 'wan' ? 'up' : '', media: '2500baseT <full-duplex>', gateway: i.id === 'wan' ? wanGw : '', gatewayv6: i.id === 'wan' ? 'fe80::1' : '',
    })),
    '/api/v2/status/carp': { enable: true, maintenance_mode: false },
    '/api/v2/status/services': services,
    '/api/v2/status/system': {
      platform: 'Netgate 4200', serial: `2043${rnd.int(100000, 999999)}`, netgate_id: netgateId, uptime: `${rnd.int(2, 90)} Days 04 Hours 12 Minutes 09 Seconds`,
      bios_vendor: 'Insyde Corp.', bios_version: '1.02.00', bios_date: '04/12/2024', kernel_pti: false, mds_mitigation: 'inactive',
      temp_c: 44.5, temp_f: 112.1, cpu_model: 'Intel(R) Atom(TM) x6413E Processor @ 1.50GHz', cpu_load_avg: [0.21, 0.18, 0.15], cpu_count: 4,
      cpu_usage: 3.2, mem_usage: 17.8, mbuf_usage: 1.4, swap_usage: 0, disk_usage: 6.1,
    },
    '/api/v2/status/logs/settings': { format: 'rfc5424', nentries: 500, logfilesize: 512000, rotatecount: 7, logcompressiontype: 'bzip2', enableremotelogging: true, ipprotocol: 'ipv4', remoteserver: '10.10.10.10:514', logall: false, filter: true, system: true, auth: true, vpn: true, filterdescriptions: 1 },
    '/api/v2/status/dhcp_server/leases': leases,
    '/api/v2/status/ipsec/sas': [
      { con_id: 'con1', uniqueid: 1, version: 2, state: 'ESTABLISHED', local_host: wanIp, local_port: '500', local_id: wanIp, remote_host: '198.51.100.7', remote_port: '500', remote_id: '198.51.100.7', initiator_spi: rnd.hex(8), responder_spi: rnd.hex(8), nat_remote: false, nat_any: false, encr_alg: 'AES_CBC', encr_keysize: 256, integ_alg: 'HMAC_SHA2_256_128', prf_alg: 'PRF_HMAC_SHA2_256', dh_group: 'MODP_2048', established: 3600 * 5, rekey_time: 20000, child_sas: [childSa] },
    ],
    '/api/v2/status/ipsec/child_sas': [{ parent_id: 0, id: 0, ...childSa }],
    '/api/v2/status/openvpn/servers': [{ name: 'Road warriors UDP4:1194', port: '1194', vpnid: 1, mgmt: 'server1', mode: 'server_tls_user', conns: ovpnConns, routes: ovpnRoutes }],
    '/api/v2/status/openvpn/server/connections': ovpnConns.map((c, i) => ({ parent_id: 0, id: i, ...c })),
    '/api/v2/status/openvpn/server/routes': ovpnRoutes.map((r, i) => ({ parent_id: 0, id: i, ...r })),
    '/api/v2/status/openvpn/clients': [],
    '/api/v2/status/wireguard/tunnels': [{ name: 'tun_wg0', status: 'up', public_key: wgKey(rnd), listen_port: '51820', mtu: 1420, transfer_rx: rnd.int(1e5, 1e8), transfer_tx: rnd.int(1e5, 1e8), inpkts: rnd.int(1e3, 1e6), outpkts: rnd.int(1e3, 1e6), descr: 'Road warriors', peers: wgPeers }],
    '/api/v2/status/wireguard/peers': wgPeers,
    '/api/v2/vpn/ipsec/phase1/encryptions': phase1.encryption.map((e, i) => ({ parent_id: 0, id: i, ...e })),
    '/api/v2/vpn/ipsec/phase2s': [
      { uniqid: rnd.hex(7), reqid: 1, ikeid: 1, descr: 'Office LAN to branch LAN', mode: 'tunnel', localid_type: 'lan', localid_address: '', remoteid_type: 'network', remoteid_address: '10.20.0.0', remoteid_netbits: 24, protocol: 'esp', encryption_algorithm_option: [{ name: 'aes256gcm', keylen: 128 }], hash_algorithm_option: ['hmac_sha256'], pfsgroup: 14, lifetime: 3600, rekey_time: 3240, pinghost: '10.20.0.1', keepalive: true },
    ],
    '/api/v2/vpn/ipsec/phase2/encryptions': [{ parent_id: 0, id: 0, name: 'aes256gcm', keylen: 128 }],
    '/api/v2/vpn/ipsec/apply': { applied: true },
    '/api/v2/vpn/openvpn/servers': [
      { vpnid: 1, vpnif: 'ovpns1', description: 'Road warriors', mode: 'server_tls_user', authmode: ['Local Database'], dev_mode: 'tun', protocol: 'UDP4', interface: 'WAN', local_port: '1194', use_tls: true, tls: pem('OpenVPN Static key V1', rnd, 256), tls_type: 'crypt', caref: caRef, certref: vpnCertRef, cert_depth: 1, dh_length: 'none', ecdh_curve: 'prime256v1', data_ciphers: ['AES-256-GCM', 'CHACHA20-POLY1305'], data_ciphers_fallback: 'AES-256-GCM', digest: 'SHA256', strictusercn: true, remote_cert_tls: true, tunnel_network: '10.8.0.0/24', local_network: ['10.10.10.0/24'], maxclients: 25, allow_compression: 'no', topology: 'subnet', dns_domain: 'office.example', dns_server1: '10.10.10.1', create_gw: 'v4only', verbosity_level: 1 },
    ],
    '/api/v2/vpn/openvpn/csos': [{ common_name: 'carol', description: 'Carol gets the server network', server_list: ['ovpns1'], tunnel_network: '10.8.0.2/24', local_network: ['10.10.40.0/24'] }],
    '/api/v2/vpn/wireguard/tunnel/addresses': [{ parent_id: 0, id: 0, address: '10.9.0.1', mask: 24, descr: 'Tunnel network' }],
    '/api/v2/vpn/wireguard/apply': { applied: true },
    '/api/v2/services/dhcp_servers': dhcpServers.map((s) => ({ ...s, pool: pools[s.id], numberoptions: customOptions[s.id], staticmap: staticMaps[s.id] })),
    '/api/v2/services/dhcp_server/static_mappings': Object.entries(staticMaps).flatMap(([parent, maps]) => maps.map((m, i) => ({ parent_id: parent, id: i, ...m }))),
    '/api/v2/services/dhcp_server/address_pools': Object.entries(pools).flatMap(([parent, ps]) => ps.map((p, i) => ({ parent_id: parent, id: i, ...p }))),
    '/api/v2/services/dhcp_server/custom_options': Object.entries(customOptions).flatMap(([parent, os]) => os.map((o, i) => ({ parent_id: parent, id: i, ...o }))),
    '/api/v2/services/dhcp_server/apply': { applied: true },
    '/api/v2/services/dhcp_relay': { enable: false, interface: [], agentoption: false, server: [] },
    '/api/v2/services/dns_resolver/settings': { enable: true, port: '53', enablessl: false, active_interface: ['all'], outgoing_interface: ['WAN'], system_domain_local_zone_type: 'transparent', dnssec: true, forwarding: false, regdhcp: true, regdhcpstatic: true },
    '/api/v2/services/dns_resolver/host_overrides': [
      { host: 'nas', domain: 'office.example', ip: ['10.10.10.10'], descr: 'NAS', aliases: [{ host: 'files', domain: 'office.example', descr: 'File share name' }] },
      { host: 'www', domain: 'office.example', ip: ['10.10.40.20'], descr: 'Split-horizon web server', aliases: [] },
      { host: 'print', domain: 'office.example', ip: ['10.10.10.11'], descr: 'Printers', aliases: [] },
    ],
    '/api/v2/services/dns_resolver/domain_overrides': [{ domain: 'branch.example', ip: '10.20.0.1', forward_tls_upstream: false, descr: 'Branch office DNS over IPsec' }],
    '/api/v2/services/dns_resolver/access_lists': [{ name: 'VPN clients', action: 'allow', description: 'Road warriors may query', networks: [{ network: '10.8.0.0', mask: 24, description: 'OpenVPN' }, { network: '10.9.0.0', mask: 24, description: 'WireGuard' }] }],
    '/api/v2/services/dns_resolver/apply': { applied: true },
    '/api/v2/services/dns_forwarder/host_overrides': [],
    '/api/v2/services/dns_forwarder/apply': { applied: true },
    '/api/v2/services/ntp/settings': { enable: true, interface: ['LAN', 'STAFF'], ntpmaxpeers: 5, orphan: 12, dnsresolv: 'auto', serverauth: true, serverauthkey: Buffer.from(rnd.hex(20)).toString('base64'), serverauthalgo: 'sha256' },
    '/api/v2/services/ntp/time_servers': [
      { timeserver: '0.pfsense.pool.ntp.org', type: 'pool', prefer: false, noselect: false },
      { timeserver: 'ptbtime1.ptb.de', type: 'server', prefer: true, noselect: false },
    ],
    '/api/v2/services/ssh': { enable: true, sshdagentforwarding: false, port: '22', sshdkeyonly: 'enabled' },
    '/api/v2/services/cron/jobs': [
      { minute: '1,31', hour: '0-5', mday: '*', month: '*', wday: '*', who: 'root', command: '/usr/bin/nice -n20 adjkerntz -a' },
      { minute: '1', hour: '3', mday: '1', month: '*', wday: '*', who: 'root', command: '/usr/bin/nice -n20 /etc/rc.update_bogons.sh' },
      { minute: '*/60', hour: '*', mday: '*', month: '*', wday: '*', who: 'root', command: '/usr/bin/nice -n20 /usr/local/sbin/expiretable -v -t 3600 virusprot' },
    ],
    '/api/v2/services/acme/settings': { enable: false, writecerts: false },
    '/api/v2/services/bind/settings': { enable_bind: false, bind_dnssec_validation: 'auto', listenport: '53', controlport: '953', log_severity: 'notice' },
    '/api/v2/services/freeradius/eap': { default_eap_type: 'peap', tls_min_version: '1.2', ssl_ca_cert: caRef, ssl_server_cert: webCertRef, max_sessions: 4096, timer_expire: 60 },
    '/api/v2/system/hostname': { hostname: 'fw-office', domain: 'office.example' },
    '/api/v2/system/version': { version: '25.07.1-RELEASE', base: '15.0', patch: '0', buildtime: 'Tue Aug 26 12:00:00 UTC 2025' },
    '/api/v2/system/dns': { dnsallowoverride: false, dnslocalhost: 'local', dnsserver: ['9.9.9.9', '149.112.112.112'] },
    '/api/v2/system/timezone': { timezone: 'Europe/Berlin' },
    '/api/v2/system/console': { passwd_protect_console: true },
    '/api/v2/system/hasync': { pfsyncenabled: false, pfhostid: hostid, pfsyncpeerip: '', synchronizetoip: '', username: 'admin', password: `sync-${rnd.hex(10)}` },
    '/api/v2/system/notifications/email_settings': { disable: false, ipaddress: 'smtp.office.example', port: '587', timeout: 20, ssl: true, sslvalidate: true, fromaddress: 'firewall@office.example', notifyemailaddress: 'it@office.example', authentication_mechanism: 'LOGIN', username: 'firewall@office.example', password: `smtp-${rnd.hex(8)}` },
    '/api/v2/system/webgui/settings': { protocol: 'https', port: '443', sslcertref: webCertRef },
    '/api/v2/system/tunables': [
      { tunable: 'net.inet.ip.portrange.first', value: '1024', descr: 'Set the ephemeral port range to be lower.' },
      { tunable: 'net.inet.tcp.blackhole', value: '2', descr: 'Drop packets to closed TCP ports without returning a RST' },
      { tunable: 'kern.ipc.maxsockbuf', value: '4262144', descr: 'Maximum socket buffer size' },
    ],
    '/api/v2/system/packages': [
      { name: 'pfSense-pkg-RESTAPI', shortname: 'RESTAPI', descr: 'REST API for pfSense', installed_version: '2.10.0', latest_version: '2.10.0', update_available: false },
      { name: 'pfSense-pkg-WireGuard', shortname: 'WireGuard', descr: 'WireGuard VPN service', installed_version: '0.2.9_1', latest_version: '0.2.9_2', update_available: true },
      { name: 'pfSense-pkg-Cron', shortname: 'Cron', descr: 'Cron job manager', installed_version: '0.3.8_4', latest_version: '0.3.8_4', update_available: false },
    ],
    '/api/v2/system/package/available': [
      { name: 'pfSense-pkg-acme', shortname: 'acme', descr: 'Automated Certificate Management Environment', version: '0.8_1', installed: false, deps: ['pecl-ssh2'] },
      { name: 'pfSense-pkg-bind', shortname: 'bind', descr: 'BIND DNS server', version: '9.18_3', installed: false, deps: ['bind918'] },
      { name: 'pfSense-pkg-freeradius3', shortname: 'freeradius3', descr: 'FreeRADIUS 3.x server', version: '0.15.10_3', installed: false, deps: ['freeradius3'] },
      { name: 'pfSense-pkg-WireGuard', shortname: 'WireGuard', descr: 'WireGuard VPN service', version: '0.2.9_2', installed: true, deps: ['wireguard-tools'] },
    ],
    '/api/v2/system/restapi/settings': { enabled: true, read_only: false, keep_backup: true, login_protection: true, log_successful_auth: false, log_level: 'LOG_WARNING', represent_interfaces_as: 'descr', auth_methods: ['BasicAuth', 'KeyAuth', 'JWTAuth'], jwt_exp: 3600, allowed_interfaces: ['STAFF'], ha_sync: false, ha_sync_password: `hasync-${rnd.hex(10)}` },
    '/api/v2/system/restapi/version': { current_version: 'v2.10.0', latest_version: 'v2.10.0', latest_version_release_date: '2025-08-07T00:00:00Z', update_available: false, available_versions: ['v2.10.0', 'v2.9.2', 'v2.9.1'] },
    '/api/v2/system/restapi/access_list': [
      { type: 'allow', weight: 1, network: '10.10.20.0/24', users: [], descr: 'Staff VLAN may use the API' },
      { type: 'deny', weight: 100, network: '0.0.0.0/0', users: [], descr: 'Nobody else' },
    ],
    '/api/v2/system/certificate_authorities': [
      { descr: 'Office Internal CA', refid: caRef, trust: true, randomserial: true, serial: 7, crt: pem('CERTIFICATE', rnd, 600), prv: pem('PRIVATE KEY', rnd, 120) },
    ],
    '/api/v2/system/certificates': [
      { descr: 'webConfigurator default', refid: webCertRef, caref: caRef, type: 'server', crt: pem('CERTIFICATE', rnd, 700), prv: pem('PRIVATE KEY', rnd, 120), valid_from: '2025-02-01 00:00:00', valid_until: '2026-03-03 00:00:00', valid_days_left: 47 },
      { descr: 'OpenVPN server', refid: vpnCertRef, caref: caRef, type: 'server', crt: pem('CERTIFICATE', rnd, 700), prv: pem('PRIVATE KEY', rnd, 120), valid_from: '2025-02-01 00:00:00', valid_until: '2035-01-30 00:00:00', valid_days_left: 3302 },
      { descr: 'carol', refid: userCertRef, caref: caRef, type: 'user', crt: pem('CERTIFICATE', rnd, 700), prv: pem('PRIVATE KEY', rnd, 120), valid_from: '2025-06-01 00:00:00', valid_until: '2027-06-01 00:00:00', valid_days_left: 502 },
    ],
    '/api/v2/system/crls': [
      { refid: rnd.hex(6), descr: 'Office CRL', caref: caRef, method: 'internal', lifetime: 730, serial: 2, text: pem('X509 CRL', rnd, 200), cert: [{ certref: rnd.hex(6), serial: '5', reason: 1, revoke_time: unix(3000), descr: 'lost laptop', caref: caRef, type: 'cert', crt: pem('CERTIFICATE', rnd, 200), prv: pem('PRIVATE KEY', rnd, 120) }] },
    ],
    '/api/v2/users': [
      { name: 'admin', password: `$2y$10$${rnd.base64(40).replace(/[+/=]/g, 'x')}`, uid: 0, scope: 'system', priv: ['page-all'], descr: 'System Administrator' },
      { name: 'carol', password: `$2y$10$${rnd.base64(40).replace(/[+/=]/g, 'x')}`, uid: 2000, scope: 'user', priv: ['user-services-captiveportal-login'], descr: 'Carol (sales)', cert: [userCertRef], ipsecpsk: `upsk-${rnd.hex(8)}` },
      { name: 'dave', password: `$2y$10$${rnd.base64(40).replace(/[+/=]/g, 'x')}`, uid: 2001, scope: 'user', priv: [], descr: 'Dave (field engineer)', expires: '12/31/2026' },
      { name: 'api-auditor', password: `$2y$10$${rnd.base64(40).replace(/[+/=]/g, 'x')}`, uid: 2002, scope: 'user', priv: ['api-v2-status-system-get', 'api-v2-firewall-aliases-get'], descr: 'Read-only API account', authorizedkeys: Buffer.from(`ssh-ed25519 ${rnd.base64(32)} auditor`).toString('base64') },
    ],
    '/api/v2/user/groups': [
      { name: 'all', gid: 1998, scope: 'system', member: ['admin', 'carol', 'dave', 'api-auditor'], priv: [], description: 'All Users' },
      { name: 'admins', gid: 1999, scope: 'system', member: ['admin'], priv: ['page-all'], description: 'System Administrators' },
      { name: 'vpn-users', gid: 2000, scope: 'local', member: ['carol', 'dave'], priv: ['user-shell-access'], description: 'Remote access users' },
    ],
    '/api/v2/auth/keys': [
      { username: 'admin', length_bytes: 24, hash_algo: 'sha256', descr: 'MCP server (auditor)', key: rnd.hex(24), hash: rnd.hex(32) },
      { username: 'api-auditor', length_bytes: 24, hash_algo: 'sha256', descr: 'Monitoring', key: rnd.hex(24), hash: rnd.hex(32) },
    ],
    '/api/v2/diagnostics/arp_table': [...leases.slice(0, 6), ...staticMaps.lan?.slice(0, 2) ?? []].map((l: JsonObject) => ({
      ip_address: l.ip ?? l.ipaddr, mac_address: l.mac, hostname: `${String(l.hostname)}.office.example`, dnsresolve: 'Yes', interface: 'igc1', type: 'ethernet', permanent: false, expires: `Expires in ${rnd.int(60, 1200)} seconds`,
    })),
    '/api/v2/diagnostics/tables': [
      { name: 'bogons', entries: ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8'] },
      { name: 'virusprot', entries: [] },
      { name: 'LAN_SERVERS', entries: ['10.10.10.10', '10.10.10.11', '10.10.10.12'] },
      { name: 'BLOCKLIST', entries: ['198.51.100.128/25', '192.0.2.0/24'] },
    ],
    // Newest first, as pfSense's get_backups() lists them.
    '/api/v2/diagnostics/config_history/revisions': revisions.map((description, i) => ({
      time: unix(24 * (i + 1)), description: `admin@10.10.20.50 (Local Database): ${description}`, version: '24.0', filesize: 48_000 + (revisions.length - i) * 731,
    })),
  };
}
