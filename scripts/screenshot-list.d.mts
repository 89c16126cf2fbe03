export interface Picture {
  name: string;
  width: number;
  height: number;
  what: string;
}
export type Scheme = 'light' | 'dark';
export const PICTURES: readonly Picture[];
export const SCHEMES: readonly Scheme[];
export const MAX_BYTES: number;
