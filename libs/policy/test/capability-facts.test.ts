import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  Capability,
  PROFILE_GRANTS,
  Profile,
  READ_CAPABILITIES,
  SUPPORTED_CAPABILITIES_THIS_BUILD,
  isGranted,
  isImplemented,
  isRuntimeEnabled,
  parseProfile,
} from '../src/index.js';
import type { RuntimeFacts } from '../src/index.js';

const W = Capability.ALIAS_WRITE;
const E = Capability.ALIAS_ENTRIES_WRITE;
const R = Capability.ALIAS_READ;
const ready = (profile: Profile): RuntimeFacts => ({ profile, writeRuntimeReady: true, endpointAllowListed: true });

describe('profiles', () => {
  it('parseProfile accepts exactly the three names', () => {
    expect(parseProfile('auditor')).toBe(Profile.AUDITOR);
    expect(parseProfile('engineer')).toBe(Profile.ENGINEER);
    expect(parseProfile('write_protected')).toBe(Profile.WRITE_PROTECTED);
    for (const bad of ['Auditor', ' auditor', 'auditor ', 'write-protected', '', 'admin', null, 1, undefined]) {
      expect(() => parseProfile(bad)).toThrow(TypeError);
    }
  });

  it('the refusal message never echoes the value', () => {
    expect(() => parseProfile('s3cret-profile')).toThrow(/^(?!.*s3cret)/);
  });

  it('grants: auditor = READ, engineer = nothing, write_protected = READ + both alias writes', () => {
    expect([...PROFILE_GRANTS.auditor].sort()).toEqual([...READ_CAPABILITIES].sort());
    expect(PROFILE_GRANTS.engineer.size).toBe(0);
    expect([...PROFILE_GRANTS.write_protected].sort()).toEqual([...READ_CAPABILITIES, W, E].sort());
    expect(Object.isFrozen(PROFILE_GRANTS)).toBe(true);
    expect(() => (PROFILE_GRANTS.engineer as Set<Capability>).add(W)).toThrow(TypeError);
  });
});

describe('isImplemented (what the build contains)', () => {
  it('SUPPORTED_CAPABILITIES_THIS_BUILD is READ + both alias writes', () => {
    expect([...SUPPORTED_CAPABILITIES_THIS_BUILD].sort()).toEqual([...READ_CAPABILITIES, W, E].sort());
  });

  it('is independent of any profile: ALIAS_WRITE is implemented though auditor and engineer do not grant it', () => {
    expect(isImplemented(W)).toBe(true);
    expect(isGranted(Profile.AUDITOR, W)).toBe(false);
    expect(isGranted(Profile.ENGINEER, W)).toBe(false);
    for (const c of CAPABILITIES) expect(isImplemented(c)).toBe(true);
  });

  it('rejects a non-capability', () => {
    expect(() => isImplemented('ALIAS_DELETE' as Capability)).toThrow(/"capability"/);
  });
});

describe('isGranted (what the profile allows)', () => {
  it('differs from isImplemented: engineer grants nothing that is implemented', () => {
    for (const c of CAPABILITIES) {
      expect(isImplemented(c)).toBe(true);
      expect(isGranted(Profile.ENGINEER, c)).toBe(false);
    }
  });

  it('write_protected grants ALIAS_WRITE; auditor grants every READ but not ALIAS_WRITE', () => {
    expect(isGranted(Profile.WRITE_PROTECTED, W)).toBe(true);
    expect(isGranted(Profile.AUDITOR, R)).toBe(true);
    expect(isGranted(Profile.AUDITOR, W)).toBe(false);
  });

  it('validates both arguments', () => {
    expect(() => isGranted('root' as Profile, R)).toThrow(/"profile"/);
    expect(() => isGranted(Profile.AUDITOR, 'X' as Capability)).toThrow(/"capability"/);
  });
});

describe('isRuntimeEnabled (what the running server may offer)', () => {
  it('differs from isGranted: ALIAS_WRITE granted to write_protected is off without write runtime or allow-listing', () => {
    expect(isGranted(Profile.WRITE_PROTECTED, W)).toBe(true);
    expect(isRuntimeEnabled(W, { profile: Profile.WRITE_PROTECTED, writeRuntimeReady: false, endpointAllowListed: true })).toBe(false);
    expect(isRuntimeEnabled(W, { profile: Profile.WRITE_PROTECTED, writeRuntimeReady: true, endpointAllowListed: false })).toBe(false);
    expect(isRuntimeEnabled(W, { profile: Profile.WRITE_PROTECTED, writeRuntimeReady: false, endpointAllowListed: false })).toBe(false);
    expect(isRuntimeEnabled(W, ready(Profile.WRITE_PROTECTED))).toBe(true);
  });

  it('never enables what the profile does not grant, whatever the runtime', () => {
    expect(isRuntimeEnabled(W, ready(Profile.AUDITOR))).toBe(false);
    expect(isRuntimeEnabled(R, ready(Profile.ENGINEER))).toBe(false);
  });

  it('a granted READ capability needs no write runtime', () => {
    const off = { writeRuntimeReady: false, endpointAllowListed: false };
    for (const c of READ_CAPABILITIES) {
      expect(isRuntimeEnabled(c, { profile: Profile.AUDITOR, ...off })).toBe(true);
      expect(isRuntimeEnabled(c, { profile: Profile.WRITE_PROTECTED, ...off })).toBe(true);
    }
  });

  it('validates its arguments strictly (a truthy string is not true)', () => {
    expect(() => isRuntimeEnabled('X' as Capability, ready(Profile.AUDITOR))).toThrow(/"capability"/);
    expect(() => isRuntimeEnabled(W, null as unknown as RuntimeFacts)).toThrow(/"runtime"/);
    expect(() => isRuntimeEnabled(W, { ...ready(Profile.WRITE_PROTECTED), profile: 'x' as Profile })).toThrow(/"runtime.profile"/);
    expect(() => isRuntimeEnabled(W, { ...ready(Profile.WRITE_PROTECTED), writeRuntimeReady: 'true' as unknown as boolean })).toThrow(
      /"runtime.writeRuntimeReady"/,
    );
    expect(() => isRuntimeEnabled(W, { ...ready(Profile.WRITE_PROTECTED), endpointAllowListed: 1 as unknown as boolean })).toThrow(
      /"runtime.endpointAllowListed"/,
    );
  });
});
