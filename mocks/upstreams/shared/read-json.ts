/** A response's JSON body typed loosely: for tests that assert shapes with expect(), not with the compiler. */
export async function readJson(response: Response): Promise<any> {
  return response.json();
}
