/**
 * The JSON schemas the service module serves by name (irismod v1.3.1
 * types/schema.go, with the price pattern of irismod #138): the text of the Go
 * raw strings, tab-indented and starting with a newline. The example price of
 * the pricing schema names the chain's base denom.
 */
export function pricingSchema(baseDenom: string): string {
  return String.raw`
	{
		"$schema": "http://json-schema.org/draft-04/schema#",
		"title": "iservice-pricing",
		"description": "Interchain Service Pricing Schema",
		"type": "object",
		"definitions": {
			"discount": {
				"description": "promotion discount, greater than 0 and less than 1",
				"type": "string",
				"pattern": "^0\\.\\d*[1-9]$"
			},
			"promotion_by_time": {
				"description": "promotion by time",
				"type": "object",
				"properties": {
					"start_time": {
						"description": "starting time of the promotion",
						"type": "string",
						"format": "date-time"
					},
					"end_time": {
						"description": "ending time of the promotion",
						"type": "string",
						"format": "date-time"
					},
					"discount": {
						"$ref": "#/definitions/discount"
					}
				},
				"additionalProperties": false,
				"required": [
					"start_time",
					"end_time",
					"discount"
				]
			},
			"promotion_by_volume": {
				"description": "promotion by volume",
				"type": "object",
				"properties": {
					"volume": {
						"description": "minimal volume for the promotion",
						"type": "integer",
						"minimum": 1
					},
					"discount": {
						"$ref": "#/definitions/discount"
					}
				},
				"additionalProperties": false,
				"required": [
					"volume",
					"discount"
				]
			}
		},
		"properties": {
			"price": {
				"description": "base price in min unit, e.g. 5${baseDenom}",
				"type": "string",
				"pattern": "^\\d+[a-zA-Z][a-zA-Z0-9/]{2,127}$"
			},
			"promotions_by_time": {
				"description": "promotions by time, in ascending order",
				"type": "array",
				"items": {
					"$ref": "#/definitions/promotion_by_time"
				},
				"maxItems": 5,
				"uniqueItems": true
			},
			"promotions_by_volume": {
				"description": "promotions by volume, in ascending order",
				"type": "array",
				"items": {
					"$ref": "#/definitions/promotion_by_volume"
				},
				"maxItems": 5,
				"uniqueItems": true
			}
		},
		"additionalProperties": false,
		"required": [
			"price"
		]
	}`;
}

export const RESULT_SCHEMA = String.raw`
	{
		"$schema": "http://json-schema.org/draft-04/schema#",
		"title": "iservice-result",
		"description": "Interchain Service Result Schema",
		"type": "object",
		"properties": {
			"code": {
				"description": "result code",
				"type": "integer",
				"enum": [
					200,
					400,
					500
				]
			},
			"message": {
				"description": "result message",
				"type": "string"
			}
		},
		"additionalProperties": false,
		"required": [
			"code",
			"message"
		]
	}`;
