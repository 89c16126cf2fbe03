/**
 * What else the Turn on sync form holds, as zxcvbn's user inputs: a
 * passphrase built from the user name, the server's host, the database or the
 * device's name is as weak as those are public. The page and the worker
 * measure with the same list, so the meter and the refusal agree.
 */
export function passphraseContext(form: { username: string; serverUrl: string; database: string; deviceName: string }): string[] {
  const host = URL.canParse(form.serverUrl) ? new URL(form.serverUrl).hostname : form.serverUrl;
  return [form.username, host, ...host.split('.'), form.database, form.deviceName].map((input) => input.trim()).filter((input) => input !== '');
}
