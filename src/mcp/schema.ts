import { z } from 'zod';

/**
 * A tool's arguments as a closed object: an unknown argument (a misspelt name, an option of
 * another tool) is refused, naming it and the arguments the tool takes, rather than ignored.
 */
export function toolArgs<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  const names = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown argument ${issue.keys.map((k) => `'${k}'`).join(', ')}; this tool takes ${names}` : undefined),
  });
}
