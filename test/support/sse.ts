// The start of a server-sent event stream as a test reads it: the first `events` events (split at
// blank lines), then the client leaves.
export interface StreamStart {
  status: number;
  type: string | null;
  headers: Headers;
  /** each event's text, without its blank line */
  events: string[];
}

export async function readStreamStart(url: string, events: number): Promise<StreamStart> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (text.split('\n\n').length - 1 < events) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    headers: response.headers,
    events: text
      .split('\n\n')
      .filter((chunk) => chunk !== '')
      .slice(0, events),
  };
}
