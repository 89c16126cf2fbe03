import { version } from '../../package.json';

/** The app version recorded in exports; a named JSON import, so bundles carry this one field only. */
export const APP_VERSION: string = version;
