// Signing throughput on 2000 distinct FillOrders:
//   (a) ours: hashFillOrderJS-equivalent hashing + DigestSigner.sign
//   (b) ethers Wallet.signTypedData (the usual way)
//   (c) floor: raw secp256k1 signatures of precomputed digests
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Wallet } from 'ethers';
import { DigestSigner, eip712Types, warmUpSigning, hashActionBytes, hexToBytes, makeExchangeDomain, recoverDigestSigner, type FillOrder } from '../src/shared/protocol';
import { measureInterleaved, note, ratio, type Benchmark } from './harness';

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

const bench: Benchmark = {
  name: 'signing',
  async run(report) {
    const signer = new DigestSigner(KEY);
    const wallet = new Wallet(KEY);
    const orders = makeOrders(signer.address);
    const types = eip712Types('FillOrder');
    const keyBytes = hexToBytes(KEY);
    const digests = orders.map((o) => hashActionBytes('FillOrder', o, domain));

    // Same answer from all three paths before timing anything.
    const ours0 = signer.sign(hashActionBytes('FillOrder', orders[0]!, domain));
    const ethers0 = await wallet.signTypedData(domain, types, orders[0]!);
    if (ours0 !== ethers0) throw new Error('ours and ethers disagree on order 0');
    if (recoverDigestSigner(digests[0]!, ours0) !== signer.address) throw new Error('recovery failed');

    // Rounds of 250 distinct orders (cycling through the 2000), interleaved across candidates.
    const R = 250;
    let cursor = 0;
    const slice = () => {
      const start = cursor;
      cursor = (cursor + R) % N;
      return start;
    };
    const oursRound = () => {
      const s = slice();
      let last = '';
      for (let i = s; i < s + R; i++) last = signer.sign(hashActionBytes('FillOrder', orders[i]!, domain));
      return last;
    };
    const floorRound = () => {
      const s = slice();
      let last: Uint8Array | undefined;
      for (let i = s; i < s + R; i++) last = secp256k1.sign(digests[i]!, keyBytes, { prehash: false, format: 'recovered' });
      return last;
    };
    const ethersRound = async () => {
      const s = slice();
      let last = '';
      for (let i = s; i < s + R; i++) last = await wallet.signTypedData(domain, types, orders[i]!);
      return last;
    };
    const hashRound = () => {
      const s = slice();
      let last: Uint8Array | undefined;
      for (let i = s; i < s + R; i++) last = hashActionBytes('FillOrder', orders[i]!, domain);
      return last;
    };
    const rounds = { rounds: 16 };

    console.log('  -- default noble tables (window 6) --');
    const [ours8, eth8, floor8, hashOnly] = await measureInterleaved(
      report,
      [
        { label: 'ours: hash + DigestSigner.sign', opsPerRound: R, round: oursRound },
        { label: 'ethers: Wallet.signTypedData', opsPerRound: R, round: ethersRound },
        { label: 'floor: secp256k1.sign(precomputed digest)', opsPerRound: R, round: floorRound },
        { label: 'ours: hash only', opsPerRound: R, round: hashRound },
      ],
      rounds,
    );
    ratio(report, 'ours / ethers', ours8!.opsPerSec / eth8!.opsPerSec, { atLeast: 2 });
    ratio(report, 'floor / ours', floor8!.opsPerSec / ours8!.opsPerSec, { atMost: 1.3 });
    note(report, `hashing is ${((100 * ours8!.opsPerSec) / hashOnly!.opsPerSec).toFixed(1)}% of our signing time`);

    // The opt-in warm-up the vault can perform after unlock (ethers keeps its own tables).
    const heapBefore = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    warmUpSigning(12);
    const warmMs = performance.now() - t0;
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    if (signer.sign(digests[0]!) !== ours0) throw new Error('warm-up changed the signature');
    console.log('  -- after warmUpSigning(12) --');
    note(report, `warmUpSigning(12): ${warmMs.toFixed(0)} ms once, heap +${heapMb.toFixed(1)} MB`);
    const [ours12, eth12, floor12] = await measureInterleaved(
      report,
      [
        { label: 'ours: hash + DigestSigner.sign (warm)', opsPerRound: R, round: oursRound },
        { label: 'ethers: Wallet.signTypedData', opsPerRound: R, round: ethersRound },
        { label: 'floor: secp256k1.sign(digest) (warm)', opsPerRound: R, round: floorRound },
      ],
      rounds,
    );
    ratio(report, 'ours / ethers (warm)', ours12!.opsPerSec / eth12!.opsPerSec, { atLeast: 2 });
    ratio(report, 'floor / ours (warm)', floor12!.opsPerSec / ours12!.opsPerSec, { atMost: 1.3 });
  },
};

export default bench;
