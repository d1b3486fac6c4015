// Test page for e2e/fake-camera.spec.ts: reads camera frames into a canvas, decodes each QR code
// with @paulmillr/qr (served beside this file by the spec) and hands every new text to the test's
// UR assembler through window.urReceive, as the app's window hands parts to main over the bridge.
(() => {
  const status = document.getElementById('status');
  const video = document.getElementById('camera');

  const run = async () => {
    // A classic script (like the other pages here) that loads the ES module decoder on demand.
    const { default: decodeQR } = await import('./qr/decode.js');
    const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
    video.srcObject = stream;
    await video.play();
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    let last = '';
    let frames = 0;
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      if (video.videoWidth === 0) continue;
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      ctx.drawImage(video, 0, 0);
      frames++;
      let text = null;
      try {
        text = decodeQR(ctx.getImageData(0, 0, canvas.width, canvas.height));
      } catch {
        continue; // no code in this frame, or one caught between two codes
      }
      if (!text || text === last) continue;
      last = text;
      const progress = await window.urReceive(text);
      status.textContent = `${progress.state} after ${frames} frames`;
      if (progress.state === 'complete') {
        document.body.dataset['done'] = 'yes';
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
    }
  };

  run().catch((error) => {
    status.textContent = `failed: ${error && error.message ? error.message : String(error)}`;
    document.body.dataset['done'] = 'failed';
  });
})();
