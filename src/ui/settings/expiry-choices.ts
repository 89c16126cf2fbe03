/** How long a new pause point stays answerable, as Settings offers it. */
export const EXPIRY_CHOICES: readonly { label: string; minutes: number | null }[] = [
  { label: 'Never', minutes: null },
  { label: 'After 15 minutes', minutes: 15 },
  { label: 'After 1 hour', minutes: 60 },
  { label: 'After 24 hours', minutes: 24 * 60 },
  { label: 'After 7 days', minutes: 7 * 24 * 60 },
];
