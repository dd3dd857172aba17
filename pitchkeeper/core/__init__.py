"""What belongs to the site as a whole rather than to one domain."""
