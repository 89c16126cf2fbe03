export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined;
export function screenshotProblems(folder: string, readme?: string): string[];
