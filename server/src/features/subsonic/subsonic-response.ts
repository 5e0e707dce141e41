/**
 * The Subsonic answer: one `subsonic-response` envelope, written as XML (the default), JSON
 * (`f=json`) or JSONP (`f=jsonp&callback=name`). Scalars become attributes in XML, objects
 * and arrays child elements; a `value` of an element without children is its text (a genre's
 * name, a lyric line), as the Subsonic XML schema has them.
 */

export type SubsonicScalar = string | number | boolean | Date;
export type SubsonicValue = SubsonicScalar | SubsonicObject | readonly SubsonicValue[] | null | undefined;
export interface SubsonicObject {
  [key: string]: SubsonicValue;
}

export const SUBSONIC_API_VERSION = '1.16.1';
export const SUBSONIC_NAMESPACE = 'http://subsonic.org/restapi';

export type SubsonicFormat = { kind: 'xml' } | { kind: 'json' } | { kind: 'jsonp'; callback: string };

/** A JS identifier path (`cb`, `jQuery.callbacks.cb_1`): nothing a script could be smuggled in. */
const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** The format `f` asks for; an unknown `f` is XML, and JSONP without a usable callback is JSON (so the error can be read). */
export function formatOf(f: string | undefined, callback: string | undefined): SubsonicFormat | 'bad-callback' {
  if (f === 'json') return { kind: 'json' };
  if (f === 'jsonp') {
    if (callback === undefined || callback.length > 200 || !CALLBACK.test(callback)) return 'bad-callback';
    return { kind: 'jsonp', callback };
  }
  return { kind: 'xml' };
}

export function envelope(status: 'ok' | 'failed', serverVersion: string, body: SubsonicObject = {}): SubsonicObject {
  return { status, version: SUBSONIC_API_VERSION, type: 'encore', serverVersion, openSubsonic: true, ...body };
}

/** The answer's body and content type. */
export function render(format: SubsonicFormat, response: SubsonicObject): { contentType: string; body: string } {
  if (format.kind === 'xml') {
    return {
      contentType: 'application/xml; charset=utf-8',
      body: `<?xml version="1.0" encoding="UTF-8"?>\n${xmlElement('subsonic-response', response, SUBSONIC_NAMESPACE)}`,
    };
  }
  const json = JSON.stringify({ 'subsonic-response': response }, jsonValue);
  if (format.kind === 'jsonp') return { contentType: 'application/javascript; charset=utf-8', body: `${format.callback}(${json});` };
  return { contentType: 'application/json; charset=utf-8', body: json };
}

function isScalar(value: SubsonicValue): value is SubsonicScalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date;
}

function scalarText(value: SubsonicScalar): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  return String(value);
}

/**
 * JSON keeps the shape, drops absent values (undefined and null, in objects and in lists) and
 * writes dates as ISO 8601 (their toJSON). A replacer, not a copy of the answer: a search3 page
 * of 500 songs is written without building it twice.
 */
function jsonValue(_key: string, value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value) && value.some((item) => item === null || item === undefined)) return value.filter((item) => item !== null && item !== undefined);
  return value;
}

/** Characters XML 1.0 cannot carry at all (control characters, lone surrogates) are left out. */
// eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 forbids
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

function escapeText(text: string): string {
  return text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function xmlElement(name: string, value: SubsonicValue, namespace?: string): string {
  const xmlns = namespace ? ` xmlns="${namespace}"` : '';
  if (isScalar(value)) return `<${name}${xmlns}>${escapeText(scalarText(value))}</${name}>`;
  if (value === null || value === undefined || Array.isArray(value)) return `<${name}${xmlns}/>`;
  const object = value as SubsonicObject;
  const attributes: string[] = [];
  const children: string[] = [];
  for (const [key, child] of Object.entries(object)) {
    if (child === undefined || child === null) continue;
    if (isScalar(child)) {
      if (key !== 'value') attributes.push(` ${key}="${escapeXml(scalarText(child))}"`);
    } else if (Array.isArray(child)) {
      for (const item of child as readonly SubsonicValue[]) if (item !== undefined && item !== null) children.push(xmlElement(key, item));
    } else {
      children.push(xmlElement(key, child));
    }
  }
  // `value` is the element's text when it has no children, else an attribute like the others.
  const text = object['value'];
  if (text !== undefined && text !== null && isScalar(text)) {
    if (children.length > 0) attributes.push(` value="${escapeXml(scalarText(text))}"`);
    else return `<${name}${xmlns}${attributes.join('')}>${escapeText(scalarText(text))}</${name}>`;
  }
  if (children.length === 0) return `<${name}${xmlns}${attributes.join('')}/>`;
  return `<${name}${xmlns}${attributes.join('')}>${children.join('')}</${name}>`;
}
