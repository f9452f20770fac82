import { READ_CATALOGUE } from '@pfsense-mcp/pfsense-read';
import { describe, expect, it } from 'vitest';
import {
  INFO_TOOL_NAME,
  LIST_APPLIANCES_TOOL_NAME,
  KNOWN_TOOL_NAMES,
  WRITE_OPERATIONS_TOOL_NAME,
  WRITE_TOOL_NAME,
  knownToolNames,
} from '../src/index.js';

describe('KNOWN_TOOL_NAMES (startup validation list)', () => {
  it('is exactly the READ catalogue plus pfsense_mcp_info, pfsense_list_appliances and the three write tools', () => {
    expect(WRITE_TOOL_NAME).toBe('pfsense_set_firewall_alias_description');
    expect([...KNOWN_TOOL_NAMES].sort()).toEqual(
      [
        ...READ_CATALOGUE.map((t) => t.name),
        INFO_TOOL_NAME,
        LIST_APPLIANCES_TOOL_NAME,
        WRITE_TOOL_NAME,
        'pfsense_change_firewall_alias_entries',
        WRITE_OPERATIONS_TOOL_NAME,
      ].sort(),
    );
    expect(KNOWN_TOOL_NAMES).toEqual(knownToolNames());
  });
});
