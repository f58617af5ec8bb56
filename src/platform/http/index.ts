export { observeRequests } from './observe-requests.js';
