/**
 * `GET /api/products?category=…` over the mini SQL engine. Vulnerable twin: the category is pasted into the query
 * string (a quote breaks it with SQLite's error, `' OR '1'='1` lists hidden rows). Secure twin: a bound parameter.
 */
import { Router } from 'express';
import { query } from './mini-sql.js';
import type { Store } from './store.js';

const COLUMNS = 'SELECT id, name, category, price FROM products WHERE hidden = 0 AND category = ';

export function catalogRoutes(store: Store, secure: boolean): Router {
  const router = Router();
  router.get('/api/products', (req, res) => {
    const category = req.query.category;
    if (typeof category !== 'string') return void res.status(400).json({ error: 'category: one string' });
    const rows = secure
      ? query(store.tables, `${COLUMNS}?`, [category])
      : query(store.tables, `${COLUMNS}'${category}'`);
    res.json(rows);
  });
  return router;
}
