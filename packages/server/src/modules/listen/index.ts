// The listen module: the Server-Sent Events stream of a merchant's test events (`caisse listen`).
export { createListenService } from './listen.service.ts';
export { default as listenRoutes } from './listen.routes.ts';
