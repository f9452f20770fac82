import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes, isHex64 } from '@pfsense-mcp/canonical';
import { describe, expect, it } from 'vitest';
import {
  ED25519_ALGORITHM,
  ed25519PublicKeyOf,
  ed25519Sign,
  ed25519Verify,
  generateEd25519KeyPair,
  isValidEd25519PublicKey,
  keyIdOf,
} from '../src/index.js';

const TEST_1024_MESSAGE =
  '08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed185ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f27088d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128bab27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb751fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34dff7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e488acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5fb93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380db2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0';

// RFC 8032 §7.1.
const VECTORS = [
  {
    name: 'TEST 1',
    sk: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    pk: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    msg: '',
    sig: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    name: 'TEST 2',
    sk: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    pk: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    msg: '72',
    sig: '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    name: 'TEST 3',
    sk: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    pk: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    msg: 'af82',
    sig: '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
  {
    name: 'TEST 1024',
    sk: 'f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5',
    pk: '278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e',
    msg: TEST_1024_MESSAGE,
    sig: '0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03',
  },
  {
    name: 'TEST SHA(abc)',
    sk: '833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42',
    pk: 'ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf',
    msg: createHash('sha512').update('abc').digest('hex'),
    sig: 'dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704',
  },
];

const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function leToBigint(b: Uint8Array): bigint {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i] ?? 0);
  return n;
}
function bigintToLe(n: bigint, len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

// The eight small-order points of edwards25519 (canonical encodings), from "Taming the many EdDSAs".
const SMALL_ORDER_KEYS = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
];

describe('ed25519PublicKeyOf (node:crypto derivation)', () => {
  it('equals @noble/curves getPublicKey byte for byte, as a plain Uint8Array', () => {
    for (let i = 0; i < 50; i += 1) {
      const seed = Uint8Array.from(createHash('sha256').update(`seed-${i}`).digest());
      const pk = ed25519PublicKeyOf(seed);
      expect(Object.getPrototypeOf(pk)).toBe(Uint8Array.prototype);
      expect(bytesToHex(pk)).toBe(bytesToHex(ed25519.getPublicKey(seed)));
    }
  });
  it("leaves the caller's seed unchanged", () => {
    const seed = new Uint8Array(32).fill(7);
    ed25519PublicKeyOf(seed);
    expect(seed).toEqual(new Uint8Array(32).fill(7));
  });
});

describe('RFC 8032 §7.1 test vectors', () => {
  it.each(VECTORS)('$name', ({ sk, pk, msg, sig }) => {
    const priv = hexToBytes(sk);
    const message = hexToBytes(msg);
    expect(bytesToHex(ed25519PublicKeyOf(priv))).toBe(pk);
    expect(bytesToHex(ed25519Sign(priv, message))).toBe(sig);
    expect(ed25519Verify(hexToBytes(pk), message, hexToBytes(sig))).toBe(true);
  });

  it('TEST 1024 really has a 1023-byte message', () => {
    expect(hexToBytes(TEST_1024_MESSAGE).length).toBe(1023);
  });
});

describe('strict verification (zip215: false)', () => {
  const v = VECTORS[1]!;
  const pk = hexToBytes(v.pk);
  const msg = hexToBytes(v.msg);
  const sig = hexToBytes(v.sig);

  it('rejects a malleated signature S + L (non-canonical S >= L)', () => {
    const s = leToBigint(sig.subarray(32));
    const malleated = new Uint8Array(64);
    malleated.set(sig.subarray(0, 32));
    malleated.set(bigintToLe(s + L, 32), 32);
    expect(ed25519Verify(pk, msg, malleated)).toBe(false);
  });

  it('rejects S = L exactly and S with the top bits set', () => {
    const withS = (s: Uint8Array) => Uint8Array.from([...sig.subarray(0, 32), ...s]);
    expect(ed25519Verify(pk, msg, withS(bigintToLe(L, 32)))).toBe(false);
    expect(ed25519Verify(pk, msg, withS(new Uint8Array(32).fill(0xff)))).toBe(false);
  });

  it('rejects a non-canonical R encoding (y >= p) that names the same point', () => {
    // y = 1 (the identity) encoded canonically is 01 00..00; y + p = 2^255 - 18 is its non-canonical twin.
    const nonCanonical = bigintToLe(2n ** 255n - 18n, 32);
    expect(() => ed25519.Point.fromBytes(nonCanonical, true)).not.toThrow(); // ZIP-215 would decode it
    expect(isValidEd25519PublicKey(nonCanonical)).toBe(false);
    const forged = Uint8Array.from([...nonCanonical, ...new Uint8Array(32)]);
    expect(ed25519Verify(pk, msg, forged)).toBe(false);
  });

  it.each(SMALL_ORDER_KEYS)('rejects small-order public key %s, even with the trivial forgery', (hex) => {
    const A = hexToBytes(hex);
    expect(ed25519.Point.fromBytes(A, false).isSmallOrder()).toBe(true);
    expect(isValidEd25519PublicKey(A)).toBe(false);
    // R = identity, S = 0 satisfies the cofactored equation for every message when A has small order.
    const trivial = Uint8Array.from([1, ...new Uint8Array(31), ...new Uint8Array(32)]);
    const m = new TextEncoder().encode('any message at all');
    expect(ed25519.verify(trivial, m, A, { zip215: true })).toBe(true); // what a lax verifier accepts
    expect(ed25519Verify(A, m, trivial)).toBe(false);
  });

  it('rejects a changed message, a flipped signature bit and a foreign key', () => {
    expect(ed25519Verify(pk, new Uint8Array([0x73]), sig)).toBe(false);
    for (const i of [0, 31, 32, 63]) {
      const bad = Uint8Array.from(sig);
      bad[i]! ^= 0x01;
      expect(ed25519Verify(pk, msg, bad)).toBe(false);
    }
    expect(ed25519Verify(hexToBytes(VECTORS[0]!.pk), msg, sig)).toBe(false);
  });

  it('returns false (never throws) on malformed input', () => {
    const bad: unknown[] = [undefined, null, 'x', [], new Uint8Array(31), new Uint8Array(33), {}];
    for (const b of bad) {
      expect(ed25519Verify(b as Uint8Array, msg, sig)).toBe(false);
      expect(ed25519Verify(pk, b as Uint8Array, sig)).toBe(false);
      expect(ed25519Verify(pk, msg, b as Uint8Array)).toBe(false);
    }
    expect(ed25519Verify(pk, msg, new Uint8Array(65))).toBe(false);
    expect(ed25519Verify(new Uint8Array(32).fill(0xff), msg, sig)).toBe(false); // not a point
  });
});

describe('keys and key ids', () => {
  it('generates raw 32-byte keys that sign and verify', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair();
    expect(privateKey.length).toBe(32);
    expect(publicKey.length).toBe(32);
    expect(ed25519PublicKeyOf(privateKey)).toEqual(publicKey);
    const m = new TextEncoder().encode('m');
    expect(ed25519Verify(publicKey, m, ed25519Sign(privateKey, m))).toBe(true);
    expect(generateEd25519KeyPair().privateKey).not.toEqual(privateKey);
  });

  it('key id is the KEY_ID digest of {algorithm, public_key hex}, pinned', () => {
    const id = keyIdOf(hexToBytes(VECTORS[0]!.pk));
    expect(isHex64(id)).toBe(true);
    expect(ED25519_ALGORITHM).toBe('Ed25519');
    // Pinned (computed independently from the framing): a change would orphan every pinned key id.
    expect(id).toBe('c00e34b38e187931bb77f8f538d2146c3ec69745c5c88bfb05a265eaae0d06e1');
    expect(keyIdOf(hexToBytes(VECTORS[1]!.pk))).not.toBe(id);
  });

  it('validates arguments by name', () => {
    expect(() => ed25519Sign(new Uint8Array(31), new Uint8Array())).toThrow('ed25519Sign: "privateKey" must be 32 bytes');
    expect(() => ed25519Sign(new Uint8Array(32), 'x' as never)).toThrow(/"message" must be a Uint8Array/);
    expect(() => ed25519PublicKeyOf([] as never)).toThrow(TypeError);
    expect(() => keyIdOf(new Uint8Array(64))).toThrow(/keyIdOf: "publicKey"/);
  });
});
