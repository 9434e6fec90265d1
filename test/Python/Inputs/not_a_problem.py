# Defines no Model, get_inputs or get_init_inputs.
VALUE = 1
