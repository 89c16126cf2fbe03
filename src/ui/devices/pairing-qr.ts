import { renderSVG } from 'uqr';

/**
 * The pairing link as a QR code, for an `<img>`: uqr draws it as SVG markup
 * (no eval, nothing but rects and one path built from the encoded bits), and a
 * data: URL carries it, which the app's CSP allows for images. As an image,
 * the SVG cannot run script or reach the network whatever it held. Loaded on
 * demand, by `Add a device` only.
 */
export function pairingQrSrc(link: string): string {
  // A quiet zone of 4 modules, as the QR specification asks for reliable scanning; M recovers a smudged screen.
  return `data:image/svg+xml,${encodeURIComponent(renderSVG(link, { ecc: 'M', border: 4 }))}`;
}
