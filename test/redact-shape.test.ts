import test from 'ava';

import { jsonShape } from '../src/shape/index.js';

test('json_shape shows no number under a secret-named key, nor a card number, in ranges', async (t) => {
  const text = [
    '{"password": 83726451, "card_number": 4111111111111111, "otp": 492817, "pin": 4821, "cvv": 123, "accountNumber": 12345678, "order": 4111111111111111, "n": 5, "pin_length": 4, "account_id": 77}',
    '{"password": 12345678, "card_number": 5555555555554444, "otp": 100200, "pin": 1111, "cvv": 999, "accountNumber": 87654321, "order": 4111111111111111, "n": 7, "pin_length": 6, "account_id": 78}',
  ].join('\n');
  const { text: outline, tree } = await jsonShape(Buffer.from(text));
  for (const secret of ['83726451', '12345678', '4111111111111111', '5555555555554444', '492817', '100200', '4821', '123', '999', '87654321']) {
    t.false(outline.includes(secret), `${secret} shown:\n${outline}`);
    t.false(JSON.stringify(tree).includes(secret), `${secret} in the tree`);
  }
  // Numbers that are not secrets keep their ranges.
  t.regex(outline, /n: integer 5\.\.7/);
  t.regex(outline, /pin_length: integer 4\.\.6/);
  t.regex(outline, /account_id: integer 77\.\.78/);
  t.regex(outline, /password: integer \[REDACTED\]/);
});
