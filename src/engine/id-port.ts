/** Fresh ids (`crypto.randomUUID` in the browser). */
export interface IdPort {
  uuid(): string;
}
