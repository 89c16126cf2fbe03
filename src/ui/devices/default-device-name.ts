import { deviceLabel, userAgentBrands } from '../../worker/device-label.ts';

/** What `This device's name` starts as: the browser and platform, e.g. "Chromium on Linux". */
export function defaultDeviceName(nav: Navigator = navigator): string {
  return deviceLabel(nav.userAgent, userAgentBrands(nav));
}
