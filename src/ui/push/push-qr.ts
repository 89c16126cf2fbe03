import { renderSVG } from 'uqr';

/** The topic's subscribe link as a QR code for an `<img>`, drawn as the pairing link's is (see pairing-qr.ts on why an image). */
export function subscribeQrSrc(link: string): string {
  return `data:image/svg+xml,${encodeURIComponent(renderSVG(link, { ecc: 'M', border: 4 }))}`;
}
