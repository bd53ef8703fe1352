/** Recognises a unique-index violation (E11000) from MongoDB and FerretDB alike (FerretDB gives no keyPattern). */
export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
