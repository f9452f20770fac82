// The hand-written part of the demo appliance (a small office): partial objects per path; the model
// shaper fills every other field with the model default.
import type { JsonObject } from './model-shaper.js';
import type { SeededRandom } from './seeded-random.js';

export function demoRecords(rnd: SeededRandom, now: Date): Record<string, JsonObject | JsonObject[]> {
  const added = (daysAgo: number): string => `Entry added ${new Date(now.getTime() - daysAgo * 86_400_000).toUTCString().replace('GMT', '+0000')}`;
  return {
    '/api/v2/firewall/aliases': [
      { name: 'LAN_SERVERS', type: 'host', descr: 'Servers in the LAN closet', address: ['10.10.10.10', '10.10.10.11', '10.10.10.12'], detail: [added(90), 'NAS', 'Print server'] },
      { name: 'OFFICE_NETS', type: 'network', descr: 'All office networks', address: ['10.10.10.0/24', '10.10.20.0/24', '10.10.30.0/24'], detail: ['LAN', 'Staff VLAN', 'Guest VLAN'] },
      { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
      { name: 'MGMT_HOSTS', type: 'host', descr: 'Admin workstations', address: ['10.10.10.50', '10.10.10.51'], detail: ['alice-laptop', 'bob-desktop'] },
      { name: 'BLOCKLIST', type: 'network', descr: 'Known bad networks', address: ['198.51.100.0/24', '203.0.113.128/25'], detail: [added(30), added(12)] },
    ],
    '/api/v2/status/system': {
      platform: 'Netgate 4200', serial: `NG42${rnd.hex(4).toUpperCase()}`, netgate_id: rnd.hex(16), uptime: `${rnd.int(2, 90)} Days 04 Hours 12 Minutes 09 Seconds`,
      bios_vendor: 'American Megatrends International, LLC.', bios_version: '0.9.4', bios_date: '01/18/2024', kernel_pti: false, mds_mitigation: 'inactive',
      temp_c: 41.5, temp_f: 106.7, cpu_model: 'Intel(R) Atom(TM) x6413E Processor @ 1.50GHz', cpu_load_avg: [0.21, 0.18, 0.15], cpu_count: 4,
      cpu_usage: 3.2, mbuf_usage: 1.4, mem_usage: 17.8, swap_usage: 0, disk_usage: 6.1,
    },
    '/api/v2/system/hasync': { pfhostid: rnd.hex(4), password: `sync-${rnd.hex(8)}` },
  };
}
