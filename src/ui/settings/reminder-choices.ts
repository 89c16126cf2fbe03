/** When a card still pending notifies once more, as Settings offers it (null: never). */
export const REMINDER_CHOICES: readonly { label: string; minutes: number | null }[] = [
  { label: 'Off', minutes: null },
  { label: 'After 5 minutes', minutes: 5 },
  { label: 'After 15 minutes', minutes: 15 },
  { label: 'After 1 hour', minutes: 60 },
];
