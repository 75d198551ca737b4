import { http } from '@veritas/shared';
import { mockApi } from '@veritas/shared/testing';
import { errorText } from './messages';

async function failedCall(reply: [number, unknown]): Promise<unknown> {
  const api = mockApi().on('POST api/whitelable/', reply);
  try {
    return await http.post('api/whitelable/', {}).catch((error: unknown) => error);
  } finally {
    api.restore();
  }
}

describe("errors (docs/errors.md#white-labeled-brands): the server's message, else the error message, else the screen's fallback", () => {
  test("the server's message field", async () => {
    expect(
      errorText(
        await failedCall([409, { message: 'This brand already exists', detail: 'other' }]),
        'Failed to add brand',
      ),
    ).toBe('This brand already exists');
  });

  test('without one, the error message', async () => {
    expect(errorText(await failedCall([500, { detail: 'not read' }]), 'Failed to add brand')).toBe(
      'Request failed with status code 500',
    );
    expect(errorText(new Error('Network Error'), 'Error updating brand')).toBe('Network Error');
  });

  test('without either, the fallback', () => {
    expect(errorText(new Error(''), 'Error updating brand')).toBe('Error updating brand');
    expect(errorText('boom', 'Failed to load manufacturers')).toBe('Failed to load manufacturers');
  });
});
