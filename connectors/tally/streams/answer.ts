import { SaxesParser } from 'saxes';

/**
 * TallyPrime's XML answer, parsed as it arrives (saxes, a streaming parser): the bytes are decoded chunk by
 * chunk and only the objects asked for (VOUCHER, LEDGER, COMPANY) are built, one at a time, so no answer is
 * ever held whole as text (tally-database-loader issue 44: a client that buffered the answer failed with
 * "RangeError: Invalid string length" at about 820,000 vouchers). An object is a plain record of its
 * fields: text for a leaf, an array for a `NAME.LIST` (and for a tag that repeats), a record for a nested
 * element. `LINEERROR` is Tally's refusal of the request (STATUS 0).
 */
export type TallyValue = string | TallyObject | TallyObject[] | string[];
export interface TallyObject {
  [field: string]: TallyValue;
}

export interface AnswerParser {
  write(chunk: Uint8Array): void;
  /** Ends the answer: the objects it held, and Tally's LINEERROR when it refused the request. */
  end(): { objects: TallyObject[]; lineError?: string };
}

interface Building {
  name: string;
  fields: TallyObject;
  text: string;
  hasChildren: boolean;
}

function put(target: TallyObject, name: string, value: string | TallyObject): void {
  const existing = target[name];
  if (name.endsWith('.LIST')) {
    const list = (existing ?? []) as TallyObject[];
    list.push(typeof value === 'string' ? { '#text': value } : value);
    target[name] = list;
  } else if (existing === undefined) target[name] = value;
  else if (Array.isArray(existing)) (existing as Array<string | TallyObject>).push(value);
  else target[name] = [existing, value] as TallyObject[];
}

/** `encoding` is the answer's: UTF-16 (little-endian, as TallyPrime sends it) or UTF-8; a BOM is dropped. */
export function answerParser(encoding: 'utf-16le' | 'utf-8', objectTags: readonly string[]): AnswerParser {
  const decoder = new TextDecoder(encoding);
  const parser = new SaxesParser();
  const wanted = new Set(objectTags);
  const objects: TallyObject[] = [];
  const stack: Building[] = [];
  let lineError: string | undefined;
  let inLineError = false;
  let error: Error | undefined;

  parser.on('error', (e) => {
    error ??= e;
  });
  parser.on('opentag', (tag) => {
    const name = tag.name.toUpperCase();
    if (name === 'LINEERROR') {
      inLineError = true;
      lineError = '';
      return;
    }
    if (stack.length === 0 && !wanted.has(name)) return;
    if (stack.length > 0) stack.at(-1)!.hasChildren = true;
    stack.push({ name, fields: {}, text: '', hasChildren: false });
  });
  parser.on('text', (text) => {
    if (inLineError) lineError += text;
    else if (stack.length > 0) stack.at(-1)!.text += text;
  });
  parser.on('closetag', (tag) => {
    const name = tag.name.toUpperCase();
    if (name === 'LINEERROR') {
      inLineError = false;
      return;
    }
    const el = stack.at(-1);
    if (!el || el.name !== name) return;
    stack.pop();
    const parent = stack.at(-1);
    if (!parent) {
      objects.push(el.fields);
      return;
    }
    put(parent.fields, name, el.hasChildren ? el.fields : el.text);
  });

  const feed = (text: string) => {
    if (error) return;
    parser.write(text);
    if (error) throw error;
  };
  let first = true;
  return {
    write(chunk) {
      let text = decoder.decode(chunk, { stream: true });
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      feed(text);
    },
    end() {
      feed(decoder.decode());
      if (error) throw error;
      parser.close();
      if (error) throw error;
      return { objects, ...(lineError !== undefined ? { lineError: lineError.trim() } : {}) };
    },
  };
}
