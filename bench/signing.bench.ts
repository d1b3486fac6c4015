// Signing throughput on 2000 distinct FillOrders, all in one run, rounds interleaved:
//   ours: hashActionBytes + DigestSigner.sign, the app's path (libsecp256k1 and keccak in WASM,
//         as main runs after the first unlock)
//   ethers: Wallet.signTypedData of the same orders (the usual way)
//   raw signatures of precomputed digests: libsecp256k1 in WASM (tiny-secp256k1), noble (the
//         pure-JS baseline), and native libsecp256k1 (the `secp256k1` package's prebuilt binding)
//         as the floor of this machine, when it loads
//   the order digest alone on each keccak, and signer recovery (the verifier) on each library.
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Wallet } from 'ethers';
import type nativeBinding from 'secp256k1/bindings.js';
import * as tiny from 'tiny-secp256k1';
import {
  DigestSigner,
  eip712Types,
  hashActionBytes,
  hexToBytes,
  makeExchangeDomain,
  publicKeyToAddress,
  recoverDigestSigner,
  signingEngineName,
  type FillOrder,
} from '../src/shared/protocol';
import { keccakEngineName, useKeccakEngine, type Keccak256 } from '../src/shared/protocol/keccak';
import { loadWasmKeccak } from '../src/shared/protocol/keccak-wasm';
import { useWasmCrypto } from '../src/shared/protocol/wasm-crypto';
import { measureInterleaved, note, ratio, type Benchmark, type Candidate } from './harness';

const N = 2000;
const KEY = '0x96a9aaae992dc91b323af861602808fdd879520e161af6043833b6cb4537f212' as const;
const domain = makeExchangeDomain({ chainId: 31337n, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' });

function makeOrders(signer: `0x${string}`): FillOrder[] {
  const orders: FillOrder[] = [];
  for (let i = 0; i < N; i++) {
    orders.push({
      typ: 2n,
      nonce: (1780300805250n + BigInt(i)) << 16n,
      signer,
      signatureType: 0n,
      sender: signer,
      epoch: BigInt(i % 7),
      side: i % 2 === 1,
      assetId: 9168611650460731857943064610705181799767789394722817n + BigInt(i),
      size: 10_000n * BigInt(1 + (i % 500)),
      price: 1_000n * BigInt(1 + (i % 999)),
      timeInForce: BigInt(i % 4),
      approvalNonce: 0n,
    });
  }
  return orders;
}

/** The `secp256k1` package's native binding (its `bindings` entry never falls back to JS). */
type NativeSecp256k1 = typeof nativeBinding;

async function loadNative(): Promise<NativeSecp256k1 | string> {
  try {
    return (await import('secp256k1/bindings.js')).default;
  } catch (e) {
    return e instanceof Error ? e.message.split('\n')[0]! : String(e);
  }
}

const bench: Benchmark = {
  name: 'signing',
  async run(report) {
    await useWasmCrypto();
    const wasmKeccak = await loadWasmKeccak();
    const native = await loadNative();
    const signer = new DigestSigner(KEY);
    const wallet = new Wallet(KEY);
    const orders = makeOrders(signer.address);
    const types = eip712Types('FillOrder');
    const keyBytes = hexToBytes(KEY);
    const digests = orders.map((o) => hashActionBytes('FillOrder', o, domain));
    const signatures = digests.map((d) => signer.signBytes(d));
    note(report, `ours signs with ${signingEngineName()} and hashes with ${keccakEngineName()}`);

    // Same answer from every path before timing anything.
    const ours0 = signer.sign(hashActionBytes('FillOrder', orders[0]!, domain));
    if (ours0 !== (await wallet.signTypedData(domain, types, orders[0]!)))
      throw new Error('ours and ethers disagree on order 0');
    if (recoverDigestSigner(digests[0]!, ours0) !== signer.address) throw new Error('recovery failed');
    const tiny0 = tiny.signRecoverable(digests[0]!, keyBytes);
    const noble0 = secp256k1.sign(digests[0]!, keyBytes, { prehash: false, format: 'recovered' });
    if (Buffer.compare(tiny0.signature, noble0.subarray(1)) !== 0 || tiny0.recoveryId !== noble0[0])
      throw new Error('WASM and noble disagree');
    if (
      typeof native !== 'string' &&
      Buffer.compare(native.ecdsaSign(digests[0]!, keyBytes).signature, tiny0.signature) !== 0
    ) {
      throw new Error('native and WASM disagree');
    }

    // Rounds of R distinct orders (cycling through the 2000), interleaved across candidates.
    const R = 250;
    let cursor = 0;
    const slice = (): number => {
      const start = cursor;
      cursor = (cursor + R) % N;
      return start;
    };
    const each =
      <T>(op: (i: number) => T, count = R) =>
      (): T | undefined => {
        const s = cursor;
        cursor = (cursor + count) % N;
        let last: T | undefined;
        for (let i = s; i < s + count; i++) last = op(i % N);
        return last;
      };
    const ethersRound = async (): Promise<string> => {
      const s = slice();
      let last = '';
      for (let i = s; i < s + R; i++) last = await wallet.signTypedData(domain, types, orders[i]!);
      return last;
    };
    const candidates: Candidate[] = [
      {
        label: 'ours: hash + DigestSigner.sign',
        opsPerRound: R,
        round: each((i) => signer.sign(hashActionBytes('FillOrder', orders[i]!, domain))),
      },
      { label: 'ethers: Wallet.signTypedData', opsPerRound: R, round: ethersRound },
      {
        label: 'raw sign: libsecp256k1 WASM (tiny-secp256k1)',
        opsPerRound: R,
        round: each((i) => tiny.signRecoverable(digests[i]!, keyBytes)),
      },
      {
        label: 'raw sign: noble',
        opsPerRound: R,
        round: each((i) => secp256k1.sign(digests[i]!, keyBytes, { prehash: false, format: 'recovered' })),
      },
    ];
    if (typeof native !== 'string') {
      candidates.push({
        label: 'raw sign: native libsecp256k1 (floor)',
        opsPerRound: R,
        round: each((i) => native.ecdsaSign(digests[i]!, keyBytes)),
      });
    }
    const [ours, ethers, wasm, noble, floor] = await measureInterleaved(report, candidates, { rounds: 12 });
    ratio(report, 'ours vs ethers (speedup)', ethers!.usPerOp / ours!.usPerOp, { atLeast: 4 });
    if (floor) {
      ratio(report, 'WASM raw vs native floor (time)', wasm!.usPerOp / floor.usPerOp, { atMost: 3 });
    } else if (typeof native === 'string') {
      note(report, `native libsecp256k1 could not be loaded (${native}): WASM raw is compared with noble instead`);
    }
    ratio(report, 'noble raw vs WASM raw (time)', noble!.usPerOp / wasm!.usPerOp);

    // The order digest alone, on each keccak. The engine is switched (with its self-test) at the
    // start of each round, so rounds are 1000 digests to keep that switch under 1% of a round.
    const H = 1000;
    const useKeccak = (name: string, fn: Keccak256) => () => useKeccakEngine(name, fn);
    const onNoble = useKeccak('noble', nobleKeccak256);
    const onWasm = useKeccak('hash-wasm', wasmKeccak);
    const hashOn = (use: () => void) => {
      const round = each((i) => hashActionBytes('FillOrder', orders[i]!, domain), H);
      return () => {
        use();
        return round();
      };
    };
    const [hashWasm, hashNoble] = await measureInterleaved(
      report,
      [
        { label: 'order digest: hash-wasm keccak (ours)', opsPerRound: H, round: hashOn(onWasm) },
        { label: 'order digest: noble keccak', opsPerRound: H, round: hashOn(onNoble) },
      ],
      { rounds: 12 },
    );
    onWasm();
    note(
      report,
      `order digest ${hashWasm!.usPerOp.toFixed(1)} µs (target < 20 µs), ${hashNoble!.usPerOp.toFixed(1)} µs on noble's keccak; hashing is ${((100 * hashWasm!.usPerOp) / ours!.usPerOp).toFixed(1)}% of ours`,
    );

    // The verifier: noble stays unless recovery is on a hot path (see signing.ts).
    const recoverWasm = (i: number): string => {
      const sig = signatures[i]!;
      const pub = tiny.recover(digests[i]!, sig.subarray(0, 64), (sig[64]! - 27) as 0 | 1, false);
      return publicKeyToAddress(pub!);
    };
    if (recoverWasm(0) !== signer.address) throw new Error('WASM recovery failed');
    const [recNoble, recWasm] = await measureInterleaved(
      report,
      [
        {
          label: 'recover signer: noble (recoverDigestSigner)',
          opsPerRound: R,
          round: each((i) => recoverDigestSigner(digests[i]!, signatures[i]!)),
        },
        { label: 'recover signer: libsecp256k1 WASM', opsPerRound: R, round: each(recoverWasm) },
      ],
      { rounds: 6 },
    );
    ratio(report, 'noble recover vs WASM recover (time)', recNoble!.usPerOp / recWasm!.usPerOp);
  },
};

export default bench;
