// The reviewed table of identifying fields (security notes of vendor/pfrest/tool-reference.md):
// for each tool that takes `include_identifying_metadata`, the response fields that are null unless the caller
// sets it. A path is a field of the tool's model, or `nested.field` for a field of an embedded model (applied to
// every embedded item). Every entry has a sentinel test (test/identifying-metadata.test.ts); a path that does not
// name a field of the model fails the catalogue build.
//
// Scope: device identifiers, serials, literal addresses and networks, MACs, peer/account names, hostnames — and
// gateway names. This is disclosure control for operational metadata, not secret
// handling: secrets are absent from every model whatever the flag (see read-models.ts).
const OPENVPN_NETWORKS_AND_SERVERS = [
  'tunnel_network',
  'tunnel_networkv6',
  'local_network',
  'local_networkv6',
  'remote_network',
  'remote_networkv6',
  'dns_server1',
  'dns_server2',
  'dns_server3',
  'dns_server4',
  'ntp_server1',
  'ntp_server2',
  'wins_server1',
  'wins_server2',
] as const;

export const IDENTIFYING_METADATA: Readonly<Record<string, readonly string[]>> = {
  // System and platform
  pfsense_get_system_status: ['serial', 'netgate_id'],
  pfsense_get_system_restapi_access_list: ['network'],
  pfsense_get_system_restapi_settings: ['ha_sync_hosts', 'ha_sync_username'],
  pfsense_get_system_hasync: ['pfhostid', 'pfsyncpeerip', 'synchronizetoip', 'username'],
  pfsense_get_system_hostname: ['hostname', 'domain'],
  pfsense_get_system_dns: ['dnsserver'],
  // Interfaces, routing, and neighbors
  pfsense_get_interfaces: ['hwif', 'macaddr', 'ipaddr', 'subnet', 'linklocal', 'ipaddrv6', 'subnetv6', 'gateway', 'gatewayv6'],
  pfsense_get_interface_configs: [
    'if',
    'spoofmac',
    'ipaddr',
    'subnet',
    'gateway',
    'dhcphostname',
    'alias_address',
    'alias_subnet',
    'dhcprejectfrom',
    'ipaddrv6',
    'subnetv6',
    'gatewayv6',
    'prefix_6rd',
    'gateway_6rd',
    'track6_prefix_id_hex',
  ],
  pfsense_get_interface_available_interfaces: ['mac'],
  pfsense_get_interface_gres: [
    'remote_addr',
    'tunnel_local_addr',
    'tunnel_remote_addr',
    'tunnel_remote_net',
    'tunnel_local_addr6',
    'tunnel_remote_addr6',
    'tunnel_remote_net6',
  ],
  pfsense_get_gateways: ['gateway', 'monitor'],
  pfsense_get_gateway_status: ['srcip', 'monitorip'],
  pfsense_get_routing_gateway_groups: ['priorities.gateway', 'priorities.virtual_ip'],
  pfsense_get_routing_gateway_default: ['defaultgw4', 'defaultgw6'],
  pfsense_get_routing_static_routes: ['network', 'gateway'],
  // Firewall and NAT (created_by/updated_by hold "user@address" strings)
  pfsense_get_firewall_rules: ['source', 'destination', 'gateway', 'created_by', 'updated_by'],
  pfsense_get_firewall_states: ['source', 'destination'],
  pfsense_get_firewall_aliases: ['address', 'detail'],
  pfsense_get_firewall_nat_port_forwards: ['source', 'destination', 'target', 'created_by', 'updated_by'],
  pfsense_get_firewall_nat_outbound_mappings: ['source', 'destination', 'target'],
  pfsense_get_firewall_nat_one_to_one_mappings: ['external', 'source', 'destination'],
  pfsense_get_firewall_virtual_ips: ['subnet', 'carp_peer'],
  // VPN
  pfsense_get_status_ipsec_sas: ['local_host', 'local_id', 'remote_host', 'remote_id', 'child_sas.local_ts', 'child_sas.remote_ts'],
  pfsense_get_status_ipsec_child_sas: ['local_ts', 'remote_ts'],
  pfsense_get_vpn_ipsec_phase2s: ['localid_address', 'natlocalid_address', 'remoteid_address', 'pinghost'],
  pfsense_get_status_wireguard_tunnels: ['peers.endpoint', 'peers.allowed_ips'],
  pfsense_get_status_wireguard_peers: ['endpoint', 'allowed_ips'],
  pfsense_get_status_openvpn_servers: [
    'conns.common_name',
    'conns.remote_host',
    'conns.virtual_addr',
    'conns.virtual_addr6',
    'conns.user_name',
    'routes.common_name',
    'routes.remote_host',
    'routes.virtual_addr',
  ],
  pfsense_get_status_openvpn_clients: ['remote_host', 'local_host', 'virtual_addr', 'virtual_addr6'],
  pfsense_get_status_openvpn_server_connections: ['common_name', 'remote_host', 'virtual_addr', 'virtual_addr6', 'user_name'],
  pfsense_get_status_openvpn_server_routes: ['common_name', 'remote_host', 'virtual_addr'],
  pfsense_get_vpn_openvpn_servers: [...OPENVPN_NETWORKS_AND_SERVERS, 'serverbridge_dhcp_start', 'serverbridge_dhcp_end'],
  pfsense_get_vpn_openvpn_csos: ['common_name', ...OPENVPN_NETWORKS_AND_SERVERS],
  pfsense_get_vpn_wireguard_tunnel_addresses: ['address', 'mask'],
  // Users and API identities
  pfsense_get_users: ['authorizedkeys'],
  // DHCP and DNS
  pfsense_get_dhcp_relay: ['server'],
  // Services and scheduled operations
  pfsense_get_email_notification_settings: ['ipaddress', 'fromaddress', 'notifyemailaddress', 'username'],
};

for (const fields of Object.values(IDENTIFYING_METADATA)) Object.freeze(fields);
Object.freeze(IDENTIFYING_METADATA);
