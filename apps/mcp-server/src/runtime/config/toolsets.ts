/**
 * The toolsets of PFSENSE_TOOLSETS: a closed grouping of the catalogue in which every tool but
 * pfsense_mcp_info belongs to exactly one set (pfsense_mcp_info belongs to none and no toolset choice removes
 * it). The write tool and its operations view belong to `firewall`. A plain table, like KNOWN_TOOL_NAMES, so startup can validate the
 * variable before the catalogue is loaded; test/toolsets.test.ts fails if it and the catalogue ever differ.
 */
export interface Toolset {
  readonly name: string;
  /** One line for pfsense_mcp_info and the README. */
  readonly description: string;
  readonly tools: readonly string[];
}

// READ tools are listed without their `pfsense_get_` prefix; other names (the write tool) stand as they are.
const g = (name: string) => (name.startsWith('pfsense_') ? name : `pfsense_get_${name}`);

export const TOOLSETS: readonly Toolset[] = deepFrozen([
  {
    name: 'firewall',
    description:
      'filter rules, aliases, schedules, the state table, virtual IPs, traffic shapers, firewall apply status and advanced settings, the alias-description and alias-entries writes and their operations view',
    tools: [
      'pfsense_set_firewall_alias_description',
      'pfsense_change_firewall_alias_entries',
      'pfsense_get_write_operations',
      'firewall_advanced_settings',
      'firewall_aliases',
      'firewall_apply_status',
      'firewall_rules',
      'firewall_schedules',
      'firewall_states',
      'firewall_states_size',
      'firewall_traffic_shaper_limiters',
      'firewall_traffic_shapers',
      'firewall_virtual_ip_apply_status',
      'firewall_virtual_ips',
    ].map(g),
  },
  {
    name: 'nat',
    description: 'port forwards, outbound NAT mappings and mode, 1:1 NAT',
    tools: [
      'firewall_nat_one_to_one_mappings',
      'firewall_nat_outbound_mappings',
      'firewall_nat_outbound_mode',
      'firewall_nat_port_forwards',
    ].map(g),
  },
  {
    name: 'routing',
    description: 'gateways and their live status, gateway groups, the default gateway, static routes',
    tools: [
      'gateway_status',
      'gateways',
      'routing_apply_status',
      'routing_gateway_default',
      'routing_gateway_groups',
      'routing_static_routes',
    ].map(g),
  },
  {
    name: 'interfaces',
    description: 'assigned interfaces and their live status, VLANs, LAGGs, bridges, GREs, interface groups',
    tools: [
      'interface_apply_status',
      'interface_available_interfaces',
      'interface_bridges',
      'interface_configs',
      'interface_gres',
      'interface_groups',
      'interface_laggs',
      'interface_vlans',
      'interfaces',
    ].map(g),
  },
  {
    name: 'vpn',
    description: 'IPsec, OpenVPN and WireGuard configuration and live tunnel status',
    tools: [
      'ipsec_apply_status',
      'status_ipsec_child_sas',
      'status_ipsec_sas',
      'status_openvpn_clients',
      'status_openvpn_server_connections',
      'status_openvpn_server_routes',
      'status_openvpn_servers',
      'status_wireguard_peers',
      'status_wireguard_tunnels',
      'vpn_ipsec_phase1_encryptions',
      'vpn_ipsec_phase2_encryptions',
      'vpn_ipsec_phase2s',
      'vpn_openvpn_csos',
      'vpn_openvpn_servers',
      'vpn_wireguard_tunnel_addresses',
      'wireguard_apply_status',
    ].map(g),
  },
  {
    name: 'dhcp',
    description: 'DHCP servers, pools, static mappings, custom options, relay and active leases',
    tools: [
      'dhcp_leases',
      'dhcp_relay',
      'dhcp_server_address_pools',
      'dhcp_server_apply_status',
      'dhcp_server_custom_options',
      'dhcp_servers',
      'dhcp_static_mappings',
    ].map(g),
  },
  {
    name: 'dns',
    description: 'the system DNS servers, DNS Resolver (Unbound), DNS Forwarder (dnsmasq) and BIND',
    tools: [
      'bind_settings',
      'dns_forwarder_apply_status',
      'dns_forwarder_host_overrides',
      'dns_resolver_access_lists',
      'dns_resolver_apply_status',
      'dns_resolver_domain_overrides',
      'dns_resolver_host_overrides',
      'dns_resolver_settings',
      'system_dns',
    ].map(g),
  },
  {
    name: 'services',
    description: 'ACME, cron, FreeRADIUS, NTP, SSH and e-mail notification settings',
    tools: [
      'acme_settings',
      'cron_jobs',
      'email_notification_settings',
      'freeradius_eap',
      'ntp_settings',
      'ntp_time_servers',
      'ssh_settings',
    ].map(g),
  },
  {
    name: 'users',
    description: 'local users, groups and REST API keys',
    tools: ['auth_keys', 'user_groups', 'users'].map(g),
  },
  {
    name: 'certificates',
    description: 'certificate authorities, certificates and revocation lists',
    tools: ['system_certificate_authorities', 'system_certificates', 'system_crls'].map(g),
  },
  {
    name: 'system',
    description: 'version, hostname, timezone, console, web GUI, HA sync, tunables, packages and the REST API package itself',
    tools: [
      'system_console',
      'system_hasync',
      'system_hostname',
      'system_package_available',
      'system_packages',
      'system_restapi_access_list',
      'system_restapi_settings',
      'system_restapi_version',
      'system_timezone',
      'system_tunables',
      'system_version',
      'system_webgui_settings',
    ].map(g),
  },
  {
    name: 'status',
    description: 'live appliance status: system resources and identity, CARP, services',
    tools: ['carp_status', 'service_status', 'system_status'].map(g),
  },
  {
    name: 'diagnostics',
    description: 'pf tables (block lists and alias contents), the ARP table, configuration history and log settings',
    tools: ['arp_table', 'diagnostics_config_history_revisions', 'diagnostics_tables', 'status_logs_settings'].map(g),
  },
]);

export const TOOLSET_NAMES: readonly string[] = Object.freeze(TOOLSETS.map((t) => t.name));

const SET_OF: ReadonlyMap<string, string> = new Map(TOOLSETS.flatMap((set) => set.tools.map((tool) => [tool, set.name] as const)));

/** The toolset holding `toolName`, or null (pfsense_mcp_info, or a name this build does not know). */
export function toolsetOf(toolName: string): string | null {
  return SET_OF.get(toolName) ?? null;
}

function deepFrozen(sets: Toolset[]): readonly Toolset[] {
  return Object.freeze(sets.map((s) => Object.freeze({ ...s, tools: Object.freeze([...s.tools]) })));
}
