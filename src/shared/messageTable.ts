/**
 * Messages declared as a table of typed constants, one table per direction: the key is the message's `type`
 * on the wire, the value carries (as a type only) the fields that travel with it. The unions each side posts
 * and the handler tables each side's one dispatcher holds are derived from the table, so a message is
 * declared in one place and a side that does not handle it fails to compile.
 */

/** The fields of one message type. The value holds nothing: it carries `F` for the types derived below. */
interface MessageFields<F extends object> {
  readonly fields?: F;
}

/** Declares a message type's fields: `connect: message<{ projectId: string }>()`. */
export function message<F extends object = Record<never, never>>(): MessageFields<F> {
  return {};
}

type Flat<T> = { [K in keyof T]: T[K] };

/** One message of a table: its `type` and its fields, flat (so an unknown field is an error where it is posted). */
export type MessageOf<Table, T extends keyof Table & string> =
  Table[T] extends MessageFields<infer F> ? Flat<{ type: T } & F> : never;

/** Every message of a table, as the union a side posts. */
export type MessageUnion<Table> = { [T in keyof Table & string]: MessageOf<Table, T> }[keyof Table & string];

/** One handler per message type of a table: the dispatcher's table. */
export type MessageHandlers<Table, Result = unknown> = {
  [T in keyof Table & string]: (message: MessageOf<Table, T>) => Result;
};

/** Whether `type` is one the table declares (its own keys only: never `toString` or `__proto__`). */
export function declaresType<Table extends object>(
  table: Table,
  type: unknown,
): type is keyof Table & string {
  return typeof type === 'string' && Object.hasOwn(table, type);
}
