/** The `Location` of a 201: the new resource's path on the admin listener. */
export const LOCATION = {
  Location: { description: 'Path of the new resource.', schema: { type: 'string', format: 'uri-reference', maxLength: 2048 } },
};
