/**
 * The catalogue's staff operations: `POST /api/products` (administrators add an item), `GET /api/products/{productId}`
 * (anyone reads one) and `DELETE /api/products/{productId}` (administrators remove one). Vulnerable twin: the DELETE
 * checks only that the caller is signed in, so any customer can remove catalogue items (BFLA on a destructive
 * operation). Secure twin: administrators only, like the create.
 */
import { Router, type Response } from 'express';
import { authenticate, callerOf } from './authenticate.js';
import type { Store } from './store.js';

const refuse = (res: Response, status: number, error: string): void => void res.status(status).json({ error });
const publicItem = (row: Record<string, unknown>) => ({
  id: row.id,
  name: row.name,
  category: row.category,
  price: row.price,
});

export function catalogAdminRoutes(store: Store, secure: boolean): Router {
  const router = Router();
  const auth = authenticate(store);
  const products = store.tables.products;
  const find = (id: string) => products.findIndex((p) => String(p.id) === id && p.hidden === 0);

  router.post('/api/products', auth, (req, res) => {
    if (callerOf(res).role !== 'admin') return refuse(res, 403, 'staff only');
    const { name, category, price } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || name === '' || name.length > 200) return refuse(res, 400, 'name: a string');
    if (typeof category !== 'string' || !/^[a-z]{1,32}$/.test(category)) return refuse(res, 400, 'category: a-z');
    if (typeof price !== 'number' || !(price >= 0)) return refuse(res, 400, 'price: a number, 0 or more');
    const row = { id: Math.max(0, ...products.map((p) => Number(p.id))) + 1, name, category, price, hidden: 0 };
    products.push(row);
    res.status(201).json(publicItem(row));
  });

  router.get('/api/products/:productId', (req, res) => {
    const at = find(String(req.params.productId));
    if (at < 0) return refuse(res, 404, 'no such product');
    res.json(publicItem(products[at]));
  });

  router.delete('/api/products/:productId', auth, (req, res) => {
    if (secure && callerOf(res).role !== 'admin') return refuse(res, 403, 'staff only');
    const at = find(String(req.params.productId));
    if (at < 0) return refuse(res, 404, 'no such product');
    products.splice(at, 1);
    res.status(204).end();
  });

  return router;
}
