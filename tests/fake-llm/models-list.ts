/** A fixed timestamp keeps /v1/models byte-identical between runs. */
const CREATED = 1_700_000_000;

export interface ModelJson {
  id: string;
  object: 'model';
  created: number;
  owned_by: 'fake-llm';
}

export function modelJson(id: string): ModelJson {
  return { id, object: 'model', created: CREATED, owned_by: 'fake-llm' };
}

/** The body of GET /v1/models. */
export function modelsList(ids: readonly string[]): { object: 'list'; data: ModelJson[] } {
  return { object: 'list', data: ids.map(modelJson) };
}
